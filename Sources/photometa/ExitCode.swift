/// The process exit codes, named once (sysexits.h values where one fits).
enum ExitCode: Int32 {
    /// Everything asked for was done.
    case success = 0
    /// Some files could not be read; the rest was still reported.
    case someFailed = 1
    /// EX_USAGE: the command line is wrong.
    case usage = 64
}
