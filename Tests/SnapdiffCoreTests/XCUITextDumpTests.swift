import Foundation
import SnapdiffCore
import Testing

/// XCUITest's `debugDescription` text read into element trees: real dumps from public sources
/// (`Fixtures/xcuitest`, see `SOURCES.md`), then small inline cases for the edges.
@Suite("XCUITest text dumps")
struct XCUITextDumpTests {
  func fixture(_ name: String, scale: Int = 1) throws -> ElementTree {
    let path = Fixtures.path("xcuitest/\(name).txt")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try XCUITextDump.parse(text, path: path, scale: scale)
  }

  func parse(_ text: String) throws -> ElementTree {
    try XCUITextDump.parse(text, path: "dump.txt")
  }

  /// The message of the `ConfigurationError` that parsing `text` throws, or `nil`.
  func problem(_ text: String, scale: Int = 1) -> String? {
    do {
      _ = try XCUITextDump.parse(text, path: "dump.txt", scale: scale)
      return nil
    } catch let error as ConfigurationError {
      return error.message
    } catch {
      return "not a ConfigurationError: \(error)"
    }
  }

  // MARK: - Real dumps

  @Test("iPhone, lldb `po app` inside a block comment (Xcode 13)")
  func axLLDB() throws {
    let tree = try fixture("ax-iphone-lldb", scale: 3)
    #expect(tree.scale == 3)
    #expect(tree.screen == ElementTree.Size(width: 390, height: 844))
    let all = tree.root.allElements()
    #expect(all.count == 8)
    #expect(tree.root.elementType == .application)
    #expect(tree.root.label == "AX")
    #expect(tree.root.frame == ElementFrame(x: 0, y: 0, width: 390, height: 844))
    #expect(
      all.map(\.elementType) == [
        .application, .window, .other, .other, .other, .other, .staticText, .button,
      ])
    let hello = try #require(all.first { $0.elementType == .staticText })
    #expect(hello.label == "Hello, world!")
    #expect(hello.frame == ElementFrame(x: 147.7, y: 404.1, width: 94.7, height: 20.3))
    let button = try #require(all.first { $0.elementType == .button })
    #expect(button.label == "Tap me!")
    let container = try #require(parent(of: button, in: tree.root))
    #expect(container.elementType == .other)
    #expect(container.children.map(\.elementType) == [.staticText, .button])
  }

  @Test("iPhone 14 Pro: deep nesting, a tab bar with a selected tab (Xcode 14)")
  func testPilotTabBar() throws {
    let tree = try fixture("testpilot-iphone-tabbar")
    #expect(tree.screen == ElementTree.Size(width: 393, height: 852))
    let all = tree.root.allElements()
    #expect(all.count == 34)
    #expect(all.filter { $0.elementType == .other }.count == 15)
    #expect(all.filter { $0.elementType == .image }.count == 8)
    #expect(all.filter(\.isSelected).map(\.label) == ["Explore"])
    let tabBar = try #require(all.first { $0.elementType == .tabBar })
    #expect(tabBar.label == "Tab Bar")
    #expect(tabBar.frame == ElementFrame(x: 0, y: 769, width: 393, height: 83))
    #expect(
      tabBar.children.map(\.label) == ["", "News", "Explore", "Leaderboard", "Watch", "Profile"])
    let explore = tabBar.children[2]
    #expect(explore.elementType == .button)
    #expect(explore.frame == ElementFrame(x: 81, y: 770, width: 74, height: 48))
    #expect(explore.children.map(\.identifier) == ["Explore"])
    #expect(explore.children.first?.elementType == .image)
    // The tab bar sits 8 levels down, beside the stack of `Other`s that holds the content.
    let holder = try #require(parent(of: tabBar, in: tree.root))
    #expect(holder.children.map(\.elementType) == [.other, .tabBar])
    #expect(depth(of: tabBar, in: tree.root) == 8)
    let menu = try #require(all.first { $0.label == "Menu" })
    #expect(depth(of: menu, in: tree.root) == 15)
    #expect(menu.children.map(\.label) == ["", "chevron"])
  }

  @Test("iPhone 11, `po XCUIApplication().debugDescription` printed as an escaped string")
  func xcuitestStudyEscaped() throws {
    let tree = try fixture("xcuitest-study-escaped")
    #expect(tree.screen == ElementTree.Size(width: 414, height: 896))
    let all = tree.root.allElements()
    #expect(all.count == 11)
    #expect(tree.root.label == "XCUITest_study")
    let welcome = try #require(all.first { $0.identifier == "welcomeMessage" })
    #expect(welcome.elementType == .staticText)
    #expect(welcome.label == "Welcome to XCUITest Course ")
    let city = try #require(all.first { $0.identifier == "city" })
    #expect(city.elementType == .textField)
    #expect(city.label == "")
    #expect(city.value == nil)
    #expect(city.frame == ElementFrame(x: 189, y: 422.5, width: 36, height: 51.5))
    let enroll = try #require(all.first { $0.identifier == "enrollButton" })
    #expect(enroll.children.map(\.label) == ["Enroll"])
    let logo = try #require(all.first { $0.identifier == "TAUlogo" })
    #expect(logo.elementType == .image)
    let screenContent = try #require(parent(of: logo, in: tree.root))
    #expect(
      screenContent.children.map(\.elementType) == [
        .staticText, .staticText, .textField, .button, .image,
      ])
  }

  @Test("macOS menu bar app: Keyboard Focused, Disabled, Selected, unquoted values (Xcode 26)")
  func sessiometerFlags() throws {
    let tree = try fixture("sessiometer-macos-flags")
    let all = tree.root.allElements()
    #expect(all.count == 12)
    // No window: the screen reaches the right and bottom edges of the root's children.
    #expect(tree.screen == ElementTree.Size(width: 967, height: 329))
    #expect(tree.root.elementType == .application)
    #expect(tree.root.label == "Sessiometer")  // printed as `title:`
    #expect(tree.root.isEnabled == false)
    #expect(tree.root.frame == ElementFrame(x: 0, y: 0, width: 967, height: 329))
    #expect(tree.root.children.map(\.elementType) == [.dialog, .touchBar, .menuBar])
    let dialog = tree.root.children[0]
    #expect(dialog.hasFocus)
    #expect(!dialog.isEnabled)
    #expect(dialog.frame == ElementFrame(x: 587, y: 36, width: 380, height: 293))
    let group = try #require(dialog.children.first)
    #expect(group.elementType == .group)
    #expect(group.children.count == 6)
    #expect(
      group.children.map(\.value) == [
        "Sessiometer. 2 acc...", nil, nil, nil, nil, "updated 20662d10h ...",
      ])
    #expect(group.children[1].label == "Status")
    #expect(group.children[1].isSelected)
    #expect(!group.children[2].isSelected)
    #expect(group.children[2].isEnabled)
    #expect(
      group.children[3].label
        == "work, active, auth healthy, session 60% resets in n/a, weekly 10% resets in n/a")
    #expect(group.children[3].elementType == .other)
    #expect(group.children[4].elementType == .button)
    let statusItem = try #require(all.last)
    #expect(statusItem.elementType == .statusItem)
    #expect(statusItem.label == "Sessiometer: live — 2 accounts")
    #expect(parent(of: statusItem, in: tree.root)?.elementType == .menuBar)
  }

  @Test("iPad, a window's subtree as Appium's `mobile: source` describes it")
  func appiumIPadWindow() throws {
    let tree = try fixture("appium-ipad-window", scale: 2)
    #expect(tree.screen == ElementTree.Size(width: 768, height: 1024))
    #expect(tree.pixelSize == PixelSize(width: 1536, height: 2048))
    #expect(tree.root.elementType == .window)
    #expect(tree.root.allElements().map(\.elementType) == [.window, .other, .other, .other])
    #expect(depth(of: tree.root.allElements()[3], in: tree.root) == 3)
  }

  @Test(
    "every fixture survives the JSON model's checks",
    arguments: [
      "ax-iphone-lldb", "testpilot-iphone-tabbar", "xcuitest-study-escaped",
      "sessiometer-macos-flags", "appium-ipad-window",
    ])
  func roundTrip(_ name: String) throws {
    let tree = try fixture(name, scale: 2)
    #expect(try ElementTree.decode(tree.encoded(), path: name) == tree)
  }

  // MARK: - Fields

  @Test("quoted texts may hold commas, braces, escaped and unescaped quotes")
  func quotedTexts() throws {
    let tree = try parse(
      #"""
      Element subtree:
       →Other, {{0.0, 0.0}, {100.0, 100.0}}
          Button, 0x1, {{1.0, 2.0}, {3.0, 4.0}}, identifier: 'a, b', label: 'Say \'hi\', {now}}', Selected
          StaticText, {{0.0, 0.0}, {1.0, 1.0}}, label: 'Indian Laurel Fig Tree 'Green Gem''
          StaticText, {{0.0, 0.0}, {1.0, 1.0}}, label: 'It's 5', value: 5
          StaticText, {{0.0, 0.0}, {1.0, 1.0}}, label: 'Sessiometer: live, identifier: none'
          StaticText, {{0.0, 0.0}, {1.0, 1.0}}, label: ' '
          StaticText, {{0.0, 0.0}, {1.0, 1.0}}, label: 'never closed
      """#)
    let children = tree.root.children
    #expect(children[0].identifier == "a, b")
    #expect(children[0].label == "Say 'hi', {now}}")
    #expect(children[0].isSelected)
    #expect(children[0].frame == ElementFrame(x: 1, y: 2, width: 3, height: 4))
    #expect(children[1].label == "Indian Laurel Fig Tree 'Green Gem'")
    #expect(children[2].label == "It's 5")
    #expect(children[2].value == "5")
    #expect(children[3].label == "Sessiometer: live, identifier: none")
    #expect(children[3].identifier == "")
    #expect(children[4].label == " ")
    #expect(children[5].label == "never closed")
  }

  @Test("a label with line breaks runs on over the next lines")
  func multilineLabels() throws {
    let tree = try parse(
      """
      Element subtree:
       →Other, {{0.0, 0.0}, {390.0, 844.0}}
          StaticText, {{16.0, 100.0}, {358.0, 60.0}}, label: 'First line
      Second, with a comma
        and indented', Selected
          Button, {{16.0, 200.0}, {358.0, 44.0}}, label: 'OK'
          StaticText, {{16.0, 300.0}, {358.0, 44.0}}, label: 'open to the end
      Path to element:
       →Other, {{0.0, 0.0}, {390.0, 844.0}}
      """)
    let children = tree.root.children
    #expect(children.count == 3)
    #expect(children[0].label == "First line\nSecond, with a comma\n  and indented")
    #expect(children[0].isSelected)
    #expect(children[1].label == "OK")
    #expect(children[2].label == "open to the end")
  }

  @Test("values quoted or not, placeholders, flags, skipped fields")
  func valuesAndFlags() throws {
    let tree = try parse(
      """
      Element subtree:
       →Other, {{0.0, 0.0}, {390.0, 844.0}}
          TextField, 0x2, {{16.0, 200.0}, {358.0, 44.0}}, identifier: 'email', placeholderValue: 'Email', value: anna@example.com, Keyboard Focused
          SecureTextField, {{16.0, 250.0}, {358.0, 44.0}}, placeholderValue: 'Password', value: '••••'
          Switch, {{300.0, 300.0}, {51.0, 31.0}}, label: 'Sound', value: 1, Disabled
          Icon, {{426.0, 88.0}, {68.0, 90.7}}, identifier: 'Maps', label: 'Maps', value: Widget, Stack
          Slider, {{0.0, 0.0}, {1.0, 1.0}}, label: 'Volume', value: 50%, Disabled, Selected
          Button, {{0.0, 0.0}, {1.0, 1.0}}, label: 'x', hitPoint: {0.5, 0.5}, Focused
          Other, 0x60000058da90, traits: 8589934592, {{8.0, 360.0}, {359.0, 234.0}}, identifier: 'ActivityListView'
          Other, 0x60000019fa30, Main Window, {{0.0, 52.2}, {375.0, 562.5}}
      """)
    let children = tree.root.children
    #expect(children.count == 8)
    #expect(children[0].elementType == .textField)
    #expect(children[0].placeholderValue == "Email")
    #expect(children[0].value == "anna@example.com")
    #expect(children[0].hasFocus)
    #expect(children[1].elementType == .secureTextField)
    #expect(children[1].value == "••••")
    #expect(children[2].elementType == .switch)
    #expect(children[2].value == "1")
    #expect(!children[2].isEnabled)
    #expect(children[3].elementType == .icon)
    #expect(children[3].value == "Widget, Stack")
    #expect(children[4].value == "50%")
    #expect(!children[4].isEnabled && children[4].isSelected)
    #expect(children[5].label == "x")
    #expect(children[5].hasFocus)
    #expect(children[6].identifier == "ActivityListView")
    #expect(children[6].frame == ElementFrame(x: 8, y: 360, width: 359, height: 234))
    #expect(children[7].frame == ElementFrame(x: 0, y: 52.2, width: 375, height: 562.5))
    #expect(children.dropFirst(5).allSatisfy { !$0.isSelected })
  }

  @Test(
    "type names",
    arguments: [
      ("StaticText", ElementType.staticText), ("NavigationBar", .navigationBar),
      ("SecureTextField", .secureTextField), ("Cell", .cell), ("Image", .image),
      ("Switch", .switch), ("Other", .other), ("Window", .window), ("Application", .application),
      ("TabBar", .tabBar), ("CollectionView", .collectionView), ("SearchField", .searchField),
      ("PopUpButton", .popUpButton), ("Toolbar", .toolbar), ("WebView", .webView),
      ("RemotePlaceholder", .other), ("SomethingNew", .other), ("", .other),
    ])
  func typeNames(_ name: String, _ type: ElementType) {
    #expect(XCUITextDump.elementType(named: name) == type)
  }

  @Test("an unknown type is `.other`, and `(Main)` is not part of the name")
  func unknownType() throws {
    let tree = try parse(
      """
      Element subtree:
       →Window (Main), 0x60000217e920, {{0.0, 0.0}, {375.0, 667.0}}
          RemotePlaceholder, 0x60000217ebc0, pid: 22048, {{0.0, 0.0}, {375.0, 667.0}}
            Hologram, {{1.0, 2.0}, {3.0, 4.0}}, label: 'new in Xcode 99'
      """)
    #expect(tree.root.elementType == .window)
    #expect(tree.root.children[0].elementType == .other)
    #expect(tree.root.children[0].children[0].elementType == .other)
    #expect(tree.root.children[0].children[0].label == "new in Xcode 99")
  }

  @Test("frames: decimals, negative origins, CGRectNull")
  func frames() throws {
    let tree = try parse(
      """
      Element subtree:
       →Window, {{0.0, 0.0}, {375.0, 812.0}}
          Other, {{-375.0, -1426.0}, {375.0, 3964.0}}
          Other, {{0.333, 0.5}, {10.25, 0.0}}
          Other, {{inf, inf}, {0.0, 0.0}}
          Other, {{ 1 , 2 }, { 3 , 4 }}
      """)
    let frames = tree.root.children.map(\.frame)
    #expect(frames[0] == ElementFrame(x: -375, y: -1426, width: 375, height: 3964))
    #expect(frames[1] == ElementFrame(x: 0.333, y: 0.5, width: 10.25, height: 0))
    #expect(frames[2] == ElementFrame(x: 0, y: 0, width: 0, height: 0))
    #expect(frames[3] == ElementFrame(x: 1, y: 2, width: 3, height: 4))
  }

  // MARK: - Structure

  @Test("elements without a frame get the screen's")
  func missingFrames() throws {
    let tree = try parse(
      """
      Attributes: Application, pid: 12345, label: 'Example'
      Element subtree:
       →Application, pid: 12345, label: 'Example'
          Window (Main), {{0.0, 0.0}, {390.0, 844.0}}
            Other, label: 'no frame'
      """)
    let screen = ElementFrame(x: 0, y: 0, width: 390, height: 844)
    #expect(tree.root.frame == screen)
    #expect(tree.root.children[0].children[0].frame == screen)
    #expect(tree.root.children[0].children[0].label == "no frame")
  }

  @Test("the screen: the application's frame, the main window, the first sized window, children")
  func screenSize() throws {
    // Xcode 9 printed the application's frame; it beats a window that starts below the top.
    let old = try parse(
      """
      Element subtree:
       →Application, 0x60000018cf30, pid: 51436, {{0.0, 0.0}, {375.0, 667.0}}, label: 'UICatalog'
          Window, 0x6000003805b0, {{0.0, 52.2}, {375.0, 562.5}}
      """)
    #expect(old.screen == ElementTree.Size(width: 375, height: 667))
    // iPadOS 18 can put an empty window first; `(Main)` wins wherever it is.
    let iPad = try parse(
      """
      Element subtree:
       →Application, pid: 1, label: 'App'
          Window, {{0.0, 0.0}, {0.0, 0.0}}
          Window, {{0.0, 0.0}, {100.0, 100.0}}
          Window (Main), {{0.0, 0.0}, {820.0, 1180.0}}
      """)
    #expect(iPad.screen == ElementTree.Size(width: 820, height: 1180))
    let firstSized = try parse(
      """
      Element subtree:
       →Application, pid: 1, label: 'App'
          Window, {{0.0, 0.0}, {0.0, 0.0}}
          Window, {{0.0, 0.0}, {834.0, 1194.0}}
      """)
    #expect(firstSized.screen == ElementTree.Size(width: 834, height: 1194))
    let noWindow = try parse(
      """
      Element subtree:
       →Other, 0x600000193b40
          Button, {{10.0, 20.0}, {30.0, 40.0}}
          Button, {{300.0, 600.0}, {75.0, 67.0}}
      """)
    #expect(noWindow.screen == ElementTree.Size(width: 375, height: 667))
    #expect(noWindow.root.frame == ElementFrame(x: 0, y: 0, width: 375, height: 667))
  }

  @Test("nesting follows indentation whatever its step, with or without the → marker")
  func indentation() throws {
    let marked = """
      Element subtree:
       →Other, {{0.0, 0.0}, {100.0, 100.0}}, identifier: 'root'
         Other, {{0.0, 0.0}, {1.0, 1.0}}, identifier: 'a'
               Other, {{0.0, 0.0}, {1.0, 1.0}}, identifier: 'a1'
                Other, {{0.0, 0.0}, {1.0, 1.0}}, identifier: 'a1x'
               Other, {{0.0, 0.0}, {1.0, 1.0}}, identifier: 'a2'
         Other, {{0.0, 0.0}, {1.0, 1.0}}, identifier: 'b'
      \t\t\t\tOther, {{0.0, 0.0}, {1.0, 1.0}}, identifier: 'c'
      """
    let tree = try parse(marked)
    #expect(tree.root.identifier == "root")
    #expect(tree.root.children.map(\.identifier) == ["a", "b"])
    #expect(tree.root.children[0].children.map(\.identifier) == ["a1", "a2"])
    #expect(tree.root.children[0].children[0].children.map(\.identifier) == ["a1x"])
    // A tab counts one column: four put `c` at column 4, under `b` at column 3.
    #expect(tree.root.children[1].children.map(\.identifier) == ["c"])
    let unmarked = try parse(marked.replacingOccurrences(of: " →", with: "  "))
    #expect(unmarked == tree)
    let noMarkerSpace = try parse(marked.replacingOccurrences(of: " →", with: "→"))
    #expect(noMarkerSpace.root.children.map(\.identifier) == ["a", "b"])
  }

  @Test("several top-level elements are wrapped in one root")
  func severalRoots() throws {
    let tree = try parse(
      """
      Element subtree:
      Window, {{0.0, 0.0}, {414.0, 736.0}}
          Other, {{0.0, 0.0}, {414.0, 736.0}}
      Window (Main), {{0.0, 0.0}, {414.0, 736.0}}
      """)
    #expect(tree.root.elementType == .other)
    #expect(tree.root.frame == ElementFrame(x: 0, y: 0, width: 414, height: 736))
    #expect(tree.root.children.map(\.elementType) == [.window, .window])
    #expect(tree.root.children[0].children.count == 1)
  }

  @Test("deep nesting, to the depth limit, builds without recursion")
  func deepNesting() throws {
    let depth = ElementTree.maximumDepth - 1
    var text = "Element subtree:\n →Application, pid: 1, label: 'Deep'\n"
    for level in 1...depth {
      text += String(repeating: " ", count: 2 + 2 * level)
      text += "Other, {{0.0, 0.0}, {320.0, 480.0}}, identifier: 'level\(level)'\n"
    }
    let tree = try parse(text)
    #expect(tree.root.allElements().count == depth + 1)
    var element = tree.root
    var levels = 0
    while let child = element.children.first {
      #expect(element.children.count == 1)
      element = child
      levels += 1
    }
    #expect(levels == depth)
    #expect(element.identifier == "level\(depth)")
    #expect(tree.screen == ElementTree.Size(width: 320, height: 480))
  }

  @Test("the subtree ends at Path to element, Query chain, a blank line or prose")
  func endOfSubtree() throws {
    let sections = try parse(
      """
      Element subtree:
       →Window, {{0.0, 0.0}, {375.0, 667.0}}
          Other, {{0.0, 0.0}, {375.0, 667.0}}
      Path to element:
       →Application, 0x6000021de140, pid: 22048, label: 'Health'
        ↳Window, 0x60000217e920, {{0.0, 0.0}, {375.0, 667.0}}
      Query chain:
       →Find: Application 'com.apple.Health'
        Output: {
          Application, pid: 22048, label: 'Health'
        }
      """)
    #expect(sections.root.allElements().count == 2)
    let blank = try parse(
      "Element subtree:\n\n →Window, {{0.0, 0.0}, {375.0, 667.0}}\n\n    Other, {{0,0},{1,1}}\n")
    #expect(blank.root.allElements().count == 1)
    let prose = try parse(
      "Element subtree:\n →Window, {{0.0, 0.0}, {375.0, 667.0}}\n */\n    Other, {{0,0},{1,1}}\n")
    #expect(prose.root.allElements().count == 1)
  }

  @Test("Windows line endings read like Unix ones")
  func crlf() throws {
    let unix = try fixture("testpilot-iphone-tabbar")
    let text = try String(
      contentsOfFile: Fixtures.path("xcuitest/testpilot-iphone-tabbar.txt"), encoding: .utf8)
    let windows = try XCUITextDump.parse(text.replacingOccurrences(of: "\n", with: "\r\n"))
    #expect(windows == unix)
    let oldMac = try XCUITextDump.parse(text.replacingOccurrences(of: "\n", with: "\r"))
    #expect(oldMac == unix)
  }

  @Test("a JSON string value with \\u escapes")
  func jsonEscapes() throws {
    let tree = try parse(
      #"{"value": "Attributes: Window, 0x1, {{0.0, 0.0}, {393.0, 852.0}}\nElement subtree:\n \u2192Window, 0x1, {{0.0, 0.0}, {393.0, 852.0}}\n    Other, 0x2, {{0.0, 0.0}, {393.0, 852.0}}, label: 'say \"hi\"'\nPath to element:\n"}"#
    )
    #expect(tree.root.elementType == .window)
    #expect(tree.root.children.map(\.label) == [#"say "hi""#])
  }

  // MARK: - Errors

  @Test("not a dump")
  func noHeader() {
    let message = problem("Attributes: Application, pid: 1, label: 'x'\n →Application, pid: 1\n")
    #expect(message?.hasPrefix("dump.txt: no 'Element subtree:' line") == true)
    #expect(problem("")?.contains("Element subtree") == true)
  }

  @Test("a header with no elements under it names its line")
  func noElements() {
    #expect(
      problem("Attributes: Other\nElement subtree:\nPath to element:\n")
        == "dump.txt: line 2: 'Element subtree:' is followed by no elements")
    #expect(problem("x\ny\nElement subtree:")?.hasPrefix("dump.txt: line 3: ") == true)
  }

  @Test(
    "a malformed frame names its line",
    arguments: [
      "{{1.0, two}, {3.0, 4.0}}", "{{1.0, 2.0, 3.0, 4.0}}", "{{1.0, 2.0}, {3.0}}",
      "{{1.0, 2.0}, {3.0, 4.0}", "{{}}", "{{1.0, 2.0, 3.0}, {4.0}}",
      "{{1.0, 2.0}, {3.0, 4.0}, {5.0}}",
    ])
  func malformedFrame(_ frame: String) {
    let text = """
      Attributes: Application
      Element subtree:
       →Window, {{0.0, 0.0}, {375.0, 667.0}}
          Button, 0x1, \(frame), label: 'Log in'
      """
    let message = problem(text)
    #expect(message?.hasPrefix("dump.txt: line 4: malformed frame '{{") == true, "\(message ?? "")")
  }

  @Test("a frame beyond the model's range names its line")
  func frameOutOfRange() {
    let message = problem(
      "Element subtree:\n →Window, {{0.0, 0.0}, {375.0, 667.0}}\n  Other, {{0.0, 0.0}, {1.0, -5.0}}\n"
    )
    #expect(
      message?.hasPrefix("dump.txt: line 3: frame '{{0.0, 0.0}, {1.0, -5.0}}' is out") == true)
    let huge = problem("Element subtree:\n →Window, {{0.0, 0.0}, {375.0, 2e6}}\n")
    #expect(huge?.hasPrefix("dump.txt: line 2: frame ") == true)
  }

  @Test("an escaped dump's errors count unescaped lines")
  func escapedLineNumbers() {
    let message = problem(#""Element subtree:\n →Window, {{0.0, zero}, {1.0, 1.0}}\n""#)
    #expect(message?.hasPrefix("dump.txt: unescaped line 2: malformed frame") == true)
  }

  @Test("no frame anywhere, or a bad scale")
  func noScreen() {
    let message = problem("Element subtree:\n →Application, pid: 1, label: 'x'\n    Other\n")
    #expect(message?.contains("the screen's size is unknown") == true)
    #expect(
      problem("Element subtree:\n →Window, {{0.0, 0.0}, {1.0, 1.0}}\n", scale: 4)
        == "dump.txt: scale must be 1, 2 or 3, not 4")
    do {
      _ = try XCUITextDump.parse("nothing")
      Issue.record("expected an error")
    } catch {
      #expect("\(error)".hasPrefix("XCUITest dump: no 'Element subtree:' line"))
    }
  }

  // MARK: - Helpers

  /// The element whose children include `element` (compared by value).
  func parent(of element: Element, in root: Element) -> Element? {
    if root.children.contains(element) { return root }
    for child in root.children {
      if let found = parent(of: element, in: child) { return found }
    }
    return nil
  }

  /// How many levels below `root` the element sits (0 for the root itself).
  func depth(of element: Element, in root: Element) -> Int? {
    if root == element { return 0 }
    for child in root.children {
      if let found = depth(of: element, in: child) { return found + 1 }
    }
    return nil
  }
}
