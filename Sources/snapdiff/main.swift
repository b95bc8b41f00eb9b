import SnapdiffCLI

Snapdiff.launch()
