extension SQLiteDatabase {
    /// A value bound to a statement or read from a row.
    enum Value: Equatable, Sendable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])

        var int: Int64? {
            if case .integer(let v) = self { return v }
            return nil
        }
        var double: Double? {
            switch self {
            case .real(let v): return v
            case .integer(let v): return Double(v)
            default: return nil
            }
        }
        var string: String? {
            if case .text(let v) = self { return v }
            return nil
        }
        var bytes: [UInt8]? {
            if case .blob(let v) = self { return v }
            return nil
        }
    }
}
