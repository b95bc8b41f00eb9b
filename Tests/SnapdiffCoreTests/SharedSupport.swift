// The helpers every test target shares (temporary folders, ExternalTool, PNG files made byte by
// byte, ServeProcess), visible in every file of this target: the suites here use them throughout.
@_exported import SnapdiffTestSupport
