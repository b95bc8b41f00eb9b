import SnapdiffCLI

Snapdiff.main()
