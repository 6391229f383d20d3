// The test-support target (the binary runner, fixture locator, temporary folders, a clock the
// test moves) is every file's here.
@_exported import PhotoMetaTestSupport
