// The wire contract (paths, request and response bodies, multipart) is the server's API: every
// file here sees it, and tests that import SnapdiffServer do too.
@_exported import SnapdiffWire
