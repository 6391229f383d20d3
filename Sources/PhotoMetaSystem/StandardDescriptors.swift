internal import CStatx

#if canImport(Glibc)
    import Glibc
#endif

/// Standard input, output and error as the process found them. A caller may start photometa
/// with one closed (`photometa suggest >&-`): the next descriptor opened then takes its number,
/// and what photometa writes to "standard output" goes into that file or socket instead (the
/// helper launcher's socket, with `--thumbnail`, `thumbnail` and `--exec`: the offer was
/// recorded and reported as delivered though no one saw it). Each closed one is held by a
/// descriptor on which every read and write fails with `EBADF`, as on a closed one, so
/// output still fails (exit 74) and nothing else gets its number.
package enum StandardDescriptors {
    /// Holds each of 0, 1 and 2 that is closed; call first thing, before anything is opened.
    package static func holdClosed() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // `O_PATH` (of `/`): a descriptor for no reading or writing; the lowest free number
            // is `fd`, since the ones below it are open (held in order).
            let held = pm_open_folder_path(AT_FDCWD, "/")
            if held >= 0, held != fd { close(held) }
        }
    }
}
