/// Reads a GIF's logical screen size, counts its frames and extracts an XMP application
/// extension [GIF89a 17-26]. Counting frames means walking every data sub-block, so the walk
/// stops after `Limits.gifScanMax` bytes and reports the count so far as a lower bound.
package enum GIFReader {
    static let xmpAppID = Array("XMP DataXMP".utf8)

    package static func read(_ reader: BoundedReader) -> ContainerFindings {
        var out = ContainerFindings(format: .gif)
        var frames = 0
        var pos: Int64 = 13
        do throws(ReadFailure) {
            // [GIF89a 18] Logical Screen Descriptor.
            var lsd = ByteReader(try reader.read(at: 6, count: 7))
            guard let w = lsd.u16le(), let h = lsd.u16le(), let packed = lsd.u8() else { return out }
            out.width = Int(w)
            out.height = Int(h)
            if packed & 0x80 != 0 { pos += 3 << (Int(packed & 0x07) + 1) }
            var blocks = 0
            walk: while pos < reader.size {
                blocks += 1
                if pos > Int64(Limits.gifScanMax) || blocks > Limits.structureCountMax {
                    out.frameCountIsLowerBound = true
                    out.note("gif", "frame count stopped after \(pos) bytes; \(frames) frames is a lower bound")
                    break
                }
                let introducer = try reader.read(at: pos, count: 1)[0]
                switch introducer {
                case 0x2C:
                    // [GIF89a 20] Image Descriptor: 9 bytes, optional local color table,
                    // LZW minimum code size, then data sub-blocks.
                    frames += 1
                    let desc = try reader.read(at: pos + 1, count: 9)
                    pos += 10
                    if desc[8] & 0x80 != 0 { pos += 3 << (Int(desc[8] & 0x07) + 1) }
                    pos += 1
                    pos = try skipSubBlocks(reader, from: pos)
                case 0x21:
                    let label = try reader.read(at: pos + 1, count: 1)[0]
                    pos += 2
                    if label == 0xFF {
                        // [GIF89a 26] Application Extension: block of 11 bytes (identifier and
                        // authentication code), then data sub-blocks.
                        let app = try reader.read(at: pos, count: 12)
                        if app[0] == 11, Array(app[1...11]) == xmpAppID {
                            readXMP(reader, at: pos + 12, into: &out)
                        }
                    }
                    pos = try skipSubBlocks(reader, from: pos)
                case 0x3B:
                    break walk
                default:
                    out.note("gif", "unknown block 0x\(hex(introducer)) at offset \(pos); stopped")
                    break walk
                }
            }
            if pos >= reader.size {
                out.truncated = true
                out.note("gif", "no trailer: the file is cut short")
            }
        } catch {
            // A cut file or a spent budget: frames may have followed.
            out.frameCountIsLowerBound = true
            if error == .budgetExhausted || pos > Int64(Limits.gifScanMax) {
                out.note("gif", "frame count stopped after \(pos) bytes; \(frames) frames is a lower bound")
            } else {
                out.note("gif", error, while: "reading block at offset \(pos)")
            }
        }
        out.frameCount = frames
        out.animated = frames > 1
        return out
    }

    /// Skips a chain of data sub-blocks (length byte, data) up to and including the terminator.
    /// The walk gives up past `Limits.gifScanMax` (one image of millions of 1-byte sub-blocks
    /// would otherwise cost a read each).
    private static func skipSubBlocks(_ reader: BoundedReader, from start: Int64) throws(ReadFailure) -> Int64 {
        var pos = start
        while true {
            let n = try reader.read(at: pos, count: 1)[0]
            pos += 1 + Int64(n)
            if n == 0 { return pos }
            if pos > reader.size { throw .outOfBounds }
            if pos > Int64(Limits.gifScanMax) { throw .budgetExhausted }
        }
    }

    /// [XMP part 3, 1.1.2] In GIF the packet is stored raw, followed by a 258-byte "magic
    /// trailer" that makes the bytes parse as sub-blocks. The packet ends at its closing
    /// `<?xpacket end=...?>` (or `</x:xmpmeta>`).
    private static func readXMP(_ reader: BoundedReader, at start: Int64, into out: inout ContainerFindings) {
        do throws(ReadFailure) {
            let window = try reader.readAvailable(at: start, count: Limits.xmpPayloadMax)
            guard let end = XMPReader.packetEnd(in: window) else {
                out.note("gif", "XMP application extension without a packet end; ignored")
                return
            }
            out.addXMP(Array(window[0..<end]), domain: "gif")
        } catch {
            out.note("gif", error, while: "reading XMP extension")
        }
    }
}
