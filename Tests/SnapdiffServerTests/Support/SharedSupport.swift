// The helpers every test target shares (ServeProcess, ExternalTool, offCooperativePool, temporary
// folders, PNG bytes), visible in every file of this target: the suites here use them throughout.
@_exported import SnapdiffTestSupport
