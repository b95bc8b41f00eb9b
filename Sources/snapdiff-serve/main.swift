import SnapdiffServeCommand

SnapdiffServe.main()
