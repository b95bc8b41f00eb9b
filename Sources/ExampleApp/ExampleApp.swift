import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small job-search app, described screen by screen as element trees: what snapdiff's own
/// example suite snapshots. The profile screen has a live clock and an ad banner that change on
/// every run, on purpose: that is what masks are for.
public final class ExampleApp: @unchecked Sendable {
  public enum Screen: Sendable { case onboardingWelcome, onboardingSkills, resultList, profile }

  /// Where the app is.
  public private(set) var screen: Screen = .onboardingWelcome
  /// A deliberate change for the suite's own test: the Log out button moves 8 points down.
  public var movesLogoutButton = false
  /// The wall clock, so the status bar shows the real time (it changes between runs).
  public var now: () -> (hour: Int, minute: Int, second: Int) = ExampleApp.wallClock

  public init() {}

  // MARK: Navigation

  public func continueOnboarding() { screen = .onboardingSkills }
  public func finishOnboarding() { screen = .resultList }
  public func openProfile() { screen = .profile }

  /// The current screen's element tree.
  public func currentTree() -> ElementTree {
    switch screen {
    case .onboardingWelcome: onboarding(step: 1)
    case .onboardingSkills: onboarding(step: 2)
    case .resultList: resultList()
    case .profile: profile()
    }
  }

  // MARK: Screens

  private func onboarding(step: Int) -> ElementTree {
    let title = step == 1 ? "Find your next job" : "What are you good at?"
    let body =
      step == 1
      ? "Get recommendations that match your skills, and apply in one tap."
      : "Pick a few skills: we use them to rank your results."
    var children = [
      statusBar(),
      element(.image, "onboardingIllustration", "Illustration", 45, 120, 300, 240),
      element(.staticText, "onboardingTitle", title, 24, 400, 342, 34),
      element(.staticText, "onboardingBody", body, 24, 446, 342, 66),
      Element(
        identifier: "onboardingPages", elementType: .pageIndicator, value: "page \(step) of 2",
        frame: frame(145, 540, 100, 20)),
      element(
        .button, step == 1 ? "onboardingContinue" : "onboardingDone", step == 1 ? "Continue" : "Show my jobs", 24, 700,
        342, 52),
    ]
    if step == 2 {
      for (index, skill) in ["Swift", "XCUITest", "CI", "Accessibility"].enumerated() {
        var chip = element(
          .button, "skill\(skill)", skill, 24 + Double(index % 2) * 175, 560 + Double(index / 2) * 56, 167, 44)
        chip.background = HexColor(
          index == 0 ? RGBAColor(red: 0, green: 122, blue: 255) : RGBAColor(red: 229, green: 229, blue: 234))
        chip.foreground = HexColor(
          index == 0 ? RGBAColor(red: 255, green: 255, blue: 255) : RGBAColor(red: 0, green: 0, blue: 0))
        chip.isSelected = index == 0
        children.append(chip)
      }
    }
    return screenTree(children)
  }

  private func resultList() -> ElementTree {
    let jobs = [
      ("iOS Engineer", "Acme · Berlin"), ("Swift Developer", "Globex · Remote"),
      ("QA Automation", "Initech · Munich"), ("Mobile Lead", "Umbrella · Hamburg"),
    ]
    let cells = jobs.enumerated().map { index, job -> Element in
      let y = 147 + Double(index) * 76
      return Element(
        identifier: "resultCell\(index)", elementType: .cell, label: "\(job.0), \(job.1)",
        frame: frame(0, y, 390, 76),
        children: [
          element(.image, "resultLogo\(index)", "Logo", 16, y + 10, 56, 56),
          element(.staticText, "resultTitle\(index)", job.0, 84, y + 12, 240, 22),
          Element(
            identifier: "resultCompany\(index)", elementType: .staticText, label: job.1,
            frame: frame(84, y + 38, 240, 20), foreground: HexColor(RGBAColor(red: 142, green: 142, blue: 147))),
        ])
    }
    return screenTree([
      statusBar(),
      Element(
        identifier: "resultsNavigationBar", elementType: .navigationBar, frame: frame(0, 47, 390, 44),
        children: [element(.staticText, "resultsTitle", "\(jobs.count) jobs for you", 110, 58, 170, 22)]),
      Element(
        identifier: "resultsSearch", elementType: .searchField, label: "Search", placeholderValue: "Search jobs",
        frame: frame(16, 99, 358, 40)),
      Element(
        identifier: "resultsTable", elementType: .table, frame: frame(0, 147, 390, 613),
        background: HexColor(RGBAColor(red: 255, green: 255, blue: 255)), children: cells),
      tabBar(),
    ])
  }

  private func profile() -> ElementTree {
    let ads = [
      "50% off premium, today only", "Try CV review for free", "New: salary insights", "Upgrade and stand out",
    ]
    let time = now()
    let logoutY = 390.0 + (movesLogoutButton ? 8 : 0)
    return screenTree([
      statusBar(),
      Element(
        identifier: "profileNavigationBar", elementType: .navigationBar, frame: frame(0, 47, 390, 44),
        children: [element(.staticText, "profileTitle", "Profile", 160, 58, 70, 22)]),
      element(.image, "avatar", "Avatar", 145, 110, 100, 100),
      element(.staticText, "profileName", "Anna Example", 24, 226, 342, 30),
      Element(
        identifier: "profileNotifications", elementType: .cell, label: "Notifications", frame: frame(0, 280, 390, 50),
        children: [
          Element(
            identifier: "notificationsSwitch", elementType: .switch, label: "Notifications", value: "1",
            frame: frame(323, 290, 51, 31))
        ]),
      Element(identifier: "profileSettings", elementType: .cell, label: "Settings", frame: frame(0, 330, 390, 50)),
      Element(
        identifier: "logoutButton", elementType: .button, label: "Log out", frame: frame(24, logoutY, 342, 52),
        background: HexColor(RGBAColor(red: 255, green: 59, blue: 48))),
      Element(
        identifier: "adBanner", elementType: .other, frame: frame(0, 676, 390, 84),
        background: HexColor(RGBAColor(red: 255, green: 244, blue: 214)),
        children: [
          element(.staticText, "adText", "Ad: " + ads[(time.minute + time.second) % ads.count], 16, 706, 358, 24)
        ]),
      tabBar(),
    ])
  }

  // MARK: Parts

  private func statusBar() -> Element {
    let time = now()
    let clock = "\(time.hour):\(time.minute < 10 ? "0" : "")\(time.minute)"
    return Element(
      identifier: "statusBar", elementType: .statusBar, frame: frame(0, 0, 390, 47),
      background: HexColor(RGBAColor(red: 255, green: 255, blue: 255)),
      children: [element(.staticText, "clock", clock, 24, 14, 60, 20)])
  }

  private func tabBar() -> Element {
    Element(
      identifier: "tabBar", elementType: .tabBar, frame: frame(0, 760, 390, 84),
      children: ["Jobs", "Saved", "Inbox", "Profile"].enumerated().map { index, name in
        var tab = element(.button, "tab\(name)", name, 10 + Double(index) * 95, 770, 80, 40)
        tab.isSelected = (name == "Profile") == (screen == .profile)
        return tab
      })
  }

  private func screenTree(_ children: [Element]) -> ElementTree {
    ElementTree(
      scale: 2, screen: .init(width: 390, height: 844),
      root: Element(
        identifier: "exampleApp", elementType: .application, label: "Example", frame: frame(0, 0, 390, 844),
        children: [Element(elementType: .window, frame: frame(0, 0, 390, 844), children: children)]))
  }

  private func element(
    _ type: ElementType, _ identifier: String, _ label: String, _ x: Double, _ y: Double, _ width: Double,
    _ height: Double
  ) -> Element {
    Element(identifier: identifier, elementType: type, label: label, frame: frame(x, y, width, height))
  }

  private func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> ElementFrame {
    ElementFrame(x: x, y: y, width: width, height: height)
  }

  private static func wallClock() -> (hour: Int, minute: Int, second: Int) {
    var seconds = time(nil)
    var parts = tm()
    localtime_r(&seconds, &parts)
    return (Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
  }
}
