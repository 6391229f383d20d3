import Foundation
import PhotoMeta
import PhotoMetaCore

/// Parsing shared by the commands: values of options, durations, instants, zones.
struct ArgumentCursor {
    let arguments: [String]
    var index = 0
    var positionals: [String] = []
    private var onlyPositionals = false
    /// The option before, given as `--name=value`, whose value no one took: a flag (`--peek=false`
    /// would otherwise peek).
    private var untaken: String?

    init(_ arguments: [String]) { self.arguments = arguments }

    /// The next option (`--name` or `--name=value` split), or nil at the end; positionals are
    /// collected on the way. Throws when the option before was given a value it does not take.
    mutating func nextOption() throws(UsageError) -> (name: String, inlineValue: String?)? {
        if let name = untaken { throw UsageError("\(name) takes no value") }
        while index < arguments.count {
            let arg = arguments[index]
            index += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                untaken = String(arg[..<eq])
                return (String(arg[..<eq]), String(arg[arg.index(after: eq)...]))
            }
            return (arg, nil)
        }
        return nil
    }

    /// The next argument, without taking it.
    func peek() -> String? { index < arguments.count ? arguments[index] : nil }

    mutating func value(for option: (name: String, inlineValue: String?), example: String) throws(UsageError) -> String {
        if let v = takeInline(option) { return v }
        guard index < arguments.count else { throw UsageError("\(option.name) needs a value, e.g. \(option.name) \(example)") }
        index += 1
        return arguments[index - 1]
    }

    /// The value given with `--name=value`, taken (nil when none was).
    mutating func takeInline(_ option: (name: String, inlineValue: String?)) -> String? {
        if option.inlineValue != nil { untaken = nil }
        return option.inlineValue
    }

    /// A value that names a file (`--state`): an empty one names nothing, a usage error.
    mutating func path(for option: (name: String, inlineValue: String?), example: String) throws(UsageError) -> String {
        let v = try value(for: option, example: example)
        guard !v.isEmpty else { throw UsageError("\(option.name) needs a path, e.g. \(option.name) \(example)") }
        return v
    }
}

enum InstantArgument {
    /// ISO 8601 (`2024-08-08T12:08:20Z`, `2024-08-08T20:08:20+08:00`); without an offset the
    /// time is read in `zone`.
    static func parse(_ text: String, zone: TimeZone, option: String) throws(UsageError) -> Date {
        guard case .success(let stamp) = DateTextParser.iso8601(text), stamp.local.hasTime else {
            throw UsageError("\(option) '\(text)' is not an ISO 8601 date and time (e.g. 2024-08-08T12:08:20Z)")
        }
        let date = CaptureDate(.wall(stamp.local, offset: stamp.offset, offsetSource: nil), source: .fileName)
        return Date(timeIntervalSince1970: date.epochSeconds(assuming: zone))
    }
}

enum ExcludeArgument {
    /// One `--exclude` pattern (PathGlob): refused when empty.
    static func parse(_ text: String) throws(UsageError) -> String {
        guard PathGlob(text) != nil else {
            throw UsageError("--exclude needs a pattern, e.g. --exclude 'Screenshots' or --exclude '**/cache/**'")
        }
        return text
    }
}

enum DurationArgument {
    static func parse(_ text: String, option: String) throws(UsageError) -> Duration {
        guard let seconds = DurationText.parse(text), let d = Duration(seconds: seconds) else {
            if DurationText.parse(text, maximum: .infinity) != nil {
                throw UsageError("\(option) '\(text)' is longer than the longest allowed, 3650d (ten years)")
            }
            throw UsageError("\(option) '\(text)' is not a duration (use e.g. 10s, 2m, 1h, 1h30m)")
        }
        return d
    }
}

/// `--json` (one array) and `--jsonl` (one object per line), which exclude each other: the
/// output formats of the commands that list files.
enum ListFormat {
    case text, json, jsonl

    /// The format after option `name` (`--json` or `--jsonl`), refusing the other one.
    static func choose(_ name: String, over current: ListFormat) throws(UsageError) -> ListFormat {
        let wanted: ListFormat = name == "--jsonl" ? .jsonl : .json
        guard current == .text || current == wanted else { throw UsageError("--json and --jsonl cannot be combined") }
        return wanted
    }
}
