import CAllocator

/// How a long-running process (`watch`, `serve`) asks glibc's allocator to behave. Set by the
/// command, not the library: an app that embeds the library keeps its own allocator settings.
package enum AllocatorPolicy {
    /// The size from which a block gets its own mapping, given back to the system when freed.
    static let largeBlock: Int32 = 256 << 10

    /// Blocks of `largeBlock` and more come from their own mappings. glibc's threshold is
    /// dynamic by default: it climbs to the largest block freed (up to 32 MiB), after which a
    /// refresh's large arrays (a folder's listing and candidates, a burst's change sets) come
    /// from the heap and stay resident once freed. Measured: `serve` after a 50,000-file burst
    /// 92-95 → 64-72 MiB resident, its peak 89-136 → 72-100 MiB (docs/performance.md).
    /// True when glibc took the setting.
    @discardableResult
    package static func forLongRunningProcess() -> Bool {
        pm_large_blocks_mapped(largeBlock) == 1
    }

    /// Gives the free pages inside the heap back to the system (malloc_trim(3)). A look at a
    /// large folder frees as much as it made (its listing, the folder's old candidates), in
    /// blocks below `largeBlock` scattered among the ones that stay (the names the library
    /// keeps), which glibc would keep resident: `serve` after a 50,000-file burst 66-69 →
    /// 46-54 MiB. Costs a walk of the free blocks, about a millisecond at that size.
    package static func giveBackFreePages() { _ = pm_give_back_free_pages() }
}
