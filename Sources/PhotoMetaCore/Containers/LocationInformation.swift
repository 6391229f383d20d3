/// Where a 3GPP or MP4 movie was recorded, as its `udta/loci` box says [3GPP TS 26.244,
/// "Location Information Box"]. Android's recorder writes `©xyz`, but remuxing with ffmpeg
/// (`-c copy`, and every tool built on it) writes the position as `loci` instead, and 3GP
/// files carry it there from the start.
///
/// The box is a FullBox: version and flags (4 bytes), a padding bit and a packed ISO 639-2
/// language (2), the place's name (a NUL-terminated string, UTF-8, or UTF-16 after a byte
/// order mark), a role (1), then longitude, latitude and altitude, each a signed 16.16
/// fixed-point number of degrees (metres for altitude), then the astronomical body ("earth")
/// and notes. Only the two coordinates are read; out of range gives nil.
package struct LocationInformation: Sendable, Equatable {
    package var latitude: Double
    package var longitude: Double

    package init?(_ body: [UInt8]) {
        var r = ByteReader(body)
        guard r.skip(4 + 2), LocationInformation.skipString(&r), r.skip(1), let lon = r.u32be(), let lat = r.u32be()
        else { return nil }
        // A 16.16 step is 1/65536 of a degree (1.7 m): five decimals say all it holds.
        let longitude = (Double(Int32(bitPattern: lon)) / 65536 * 1e5).rounded() / 1e5
        let latitude = (Double(Int32(bitPattern: lat)) / 65536 * 1e5).rounded() / 1e5
        // 0, 0 is a recorder's placeholder for "no fix" (photoprism's isom-avc1.mp4), not a
        // place in the Gulf of Guinea.
        guard abs(latitude) <= 90, abs(longitude) <= 180, latitude != 0 || longitude != 0 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Steps over a NUL-terminated string [3GPP TS 26.244 "string"]: UTF-16 (two NUL bytes at
    /// an even offset end it) when it starts with the byte order mark FE FF, else UTF-8.
    static func skipString(_ r: inout ByteReader) -> Bool {
        let start = r.offset
        if let bom = r.u16be(), bom == 0xFEFF {
            while let unit = r.u16be() {
                if unit == 0 { return true }
            }
            return false
        }
        guard r.seek(start) else { return false }
        while let c = r.u8() {
            if c == 0 { return true }
        }
        return false
    }
}
