/// The process exit codes, named once (sysexits.h values where one fits).
enum ExitCode: Int32 {
    /// Everything asked for was done.
    case success = 0
    /// `inspect`: some files could not be read, the rest was still reported. Other commands: an
    /// error, such as an unusable state file.
    case someFailed = 1
    /// `suggest`: nothing to offer (so scripts can branch on it).
    case noSuggestion = 3
    /// `suggest`: the photo to offer is still being written; ask again shortly (the output
    /// says when).
    case pending = 4
    /// EX_USAGE: the command line is wrong.
    case usage = 64
    /// EX_NOINPUT: the folder cannot be read (the analogue of a denied photo-library permission).
    case noInput = 66
    /// EX_IOERR: the output could not be written (a full disk, an I/O error); not for a reader
    /// that went away (a closed pipe), which ends the command quietly.
    case ioError = 74
}
