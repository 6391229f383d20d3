/// Names that editors and downloaders use for files in progress (`photo.jpg.part`, `.crdownload`,
/// vim's swap files...): never news for `watch`, never offered or listed by `suggest` and
/// `recent` (a download offered under its `.part` name never completes under that name). The
/// one home of the rule; hidden names are left out by the walker already.
package enum TemporaryNames {
    package static func isTemporary(_ name: String) -> Bool {
        if name.hasPrefix(".") { return true }  // hidden, .#lock, .goutputstream
        if name.hasSuffix("~") { return true }  // emacs, gedit backups
        if name.hasPrefix("#"), name.hasSuffix("#") { return true }  // emacs autosave
        if name == "4913" { return true }  // vim's write test
        if name.hasPrefix("~$") { return true }  // office suites' lock files
        let lower = name.lowercased()
        for suffix in [
            ".swp", ".swo", ".swx", ".tmp", ".temp", ".part", ".partial", ".crdownload", ".download",
            ".kate-swp", ".filepart", ".!qb", ".aria2",
        ] where lower.hasSuffix(suffix) {
            return true
        }
        return false
    }
}
