/// The `Codable` side of a path in a report, one home for every report's paths: written under
/// its key with U+FFFD for each byte that is not UTF-8, and its exact bytes in base64 under the
/// key + `Bytes` (`pathBytes`, `fromBytes`, `toBytes`: docs/json.md) when it has such bytes;
/// read back exact. (`JSONWriter`'s side is `WatchEventReport.writePath`.)
extension KeyedEncodingContainer {
    package mutating func encodePath(_ path: String, forKey key: Key, bytesKey: Key) throws {
        try encode(PathBytes.lossy(path), forKey: key)
        if PathBytes.hasRawBytes(path) { try encode(PathBytes.base64(path), forKey: bytesKey) }
    }
}

extension KeyedDecodingContainer {
    package func decodePath(forKey key: Key, bytesKey: Key) throws -> String {
        let shown = try decode(String.self, forKey: key)
        guard let b64 = try decodeIfPresent(String.self, forKey: bytesKey), let bytes = PathBytes.fromBase64(b64) else {
            return shown
        }
        return PathBytes.decode(bytes)
    }
}
