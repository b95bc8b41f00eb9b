import SnapdiffCore

// The review page kept true after every review, without a reload: cards in the section of
// their status, groups with their failed members, every count, and the groups' member lists
// with a checkbox each (a member left out of the group's approval).
@available(macOS 14, iOS 17, tvOS 17, *)
extension ReviewPage {
  /// The sections in the report's order (`SnapshotStatus`'s), as the script's list.
  static let sectionOrder = SnapshotStatus.allCases.sorted().map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

  /// Publishes `window.snapdiffLive`, run before the review script:
  /// - `update()`: after statuses changed, every card moves where a reload would put it (a
  ///   failed card in its group while two or more of the group are failed, else among the
  ///   changes seen once; any other card in its status's section, made when the run had none),
  ///   then the groups' counts and member lists, the sections' counts, "changes seen once", the
  ///   sentence counting the groups and the counts by kind of difference follow, and the
  ///   report's list of cards takes their new order (for j/k and the viewer);
  /// - `members(group)`: the group's failed cards; `included(group)`: those whose checkbox is
  ///   ticked; `groupOf(card)`: the group a card belongs to, or `null`.
  ///
  /// A group counts its failed members only, and is a group while it has two: a change left
  /// alone is counted among the changes seen once, as on a reload.
  static let liveScript = #"""
    (function () {
      "use strict";
      var report = window.snapdiffReport;
      var order = [\#(sectionOrder)];
      var all = function (selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); };
      var main = document.querySelector("main");
      var cards = report.cards();
      var indexOf = function (card) { return Number(card.id.slice(1)); };
      \#(HTMLReport.groupsSentenceScript)

      // Each card's group, as the page was served: it goes back there when an undo makes it
      // failed again.
      var groups = all(".change-group");
      groups.forEach(function (group) {
        all(".snap", group).forEach(function (card) { card.dataset.home = group.id; });
      });
      function groupOf(card) { return card.dataset.home ? document.getElementById(card.dataset.home) : null; }
      function homeCards(group) { return cards.filter(function (card) { return card.dataset.home === group.id; }); }
      function members(group) { return homeCards(group).filter(function (card) { return card.dataset.status === "failed"; }); }
      function memberItem(group, card) {
        return all(".group-members li", group).filter(function (item) { return item.dataset.key === card.dataset.key; })[0];
      }
      function included(group) {
        return members(group).filter(function (card) {
          var box = memberItem(group, card);
          box = box && box.querySelector("input.include");
          return !box || box.checked;
        });
      }

      // Member lists: a checkbox per member, ticked; unticked, the member's card is marked and
      // the group's buttons leave it out.
      groups.forEach(function (group) {
        all(".group-members li", group).forEach(function (item) {
          var box = document.createElement("input");
          box.type = "checkbox";
          box.className = "include";
          box.checked = true;
          box.setAttribute("aria-label", "Include " + item.dataset.key + " in the group's approval");
          var label = document.createElement("label");
          label.appendChild(box);
          label.appendChild(item.querySelector(".member-key"));
          item.appendChild(label);
        });
      });
      document.addEventListener("change", function (event) {
        var box = event.target.closest(".group-members input.include");
        if (!box) return;
        var group = box.closest(".change-group");
        var card = cards.filter(function (c) { return c.dataset.home === group.id && c.dataset.key === box.closest("li").dataset.key; })[0];
        if (card) card.classList.toggle("excluded", !box.checked);
      });

      function sectionOf(status) {
        var section = document.getElementById(status);
        if (section && section.matches("section.group")) return section;
        section = document.createElement("section");
        section.className = "group st-" + status;
        section.dataset.status = status;
        section.id = status;
        section.innerHTML = "<h2><span class=\"badge\">" + status + "</span> <span class=\"count\">0</span></h2><div class=\"cards\"></div>";
        var after = order.slice(order.indexOf(status) + 1);
        var next = all("main > section.group").filter(function (s) { return after.indexOf(s.dataset.status) >= 0; })[0];
        main.insertBefore(section, next || null);
        // Its checkbox in "Show", as a reload has it.
        var filter = document.querySelector(".status-filter");
        if (filter && !filter.querySelector("input[value=\"" + status + "\"]")) {
          var label = document.createElement("label");
          label.className = "st-" + status;
          label.innerHTML = "<input type=\"checkbox\" value=\"" + status + "\" checked> " + status + " <span class=\"count\">0</span>";
          var labels = all("label", filter);
          var later = labels.filter(function (l) { return after.indexOf(l.querySelector("input").value) >= 0; })[0];
          filter.insertBefore(label, later || null);
          label.insertAdjacentText("afterend", "\n");
        }
        return section;
      }
      // The list of cards a section shows outside its groups.
      function listOf(section) {
        return all(".cards", section).filter(function (list) { return !list.closest(".change-group"); })[0];
      }
      function place(card, list) {
        if (card.parentNode === list) return;
        var later = all(":scope > .snap", list).filter(function (other) { return indexOf(other) > indexOf(card); })[0];
        list.insertBefore(card, later || null);
      }

      function update() {
        cards.forEach(function (card) {
          var group = groupOf(card);
          if (card.dataset.status === "failed" && group && members(group).length >= 2) {
            place(card, group.querySelector(".cards"));
          } else {
            place(card, listOf(sectionOf(card.dataset.status)));
          }
        });
        var sizes = [];
        groups.forEach(function (group) {
          var failed = members(group);
          var n = failed.length;
          group.dataset.count = String(n);
          group.toggleAttribute("data-gone", n < 2);
          group.style.display = n < 2 ? "none" : "";
          group.querySelector(".group-count").textContent = n.toLocaleString("en-US");
          var summary = group.querySelector(".group-members summary");
          if (summary) summary.textContent = "The " + n + " snapshots";
          all(".group-members li", group).forEach(function (item) {
            var card = homeCards(group).filter(function (c) { return c.dataset.key === item.dataset.key; })[0];
            item.hidden = !card || card.dataset.status !== "failed";
          });
          if (n >= 2) {
            sizes.push(n);
            group.dataset.key = failed.map(function (c) { return c.dataset.key; }).sort()[0];
          }
          // What the members had in common beyond the edit holds for the group as served.
          if (n !== homeCards(group).length) group.classList.add("changed-since");
        });
        // The groups in a reload's order: the largest first, then by first key.
        var shownGroups = groups.filter(function (g) { return !g.hasAttribute("data-gone"); });
        shownGroups.sort(function (a, b) {
          return Number(b.dataset.count) - Number(a.dataset.count) || (a.dataset.key < b.dataset.key ? -1 : a.dataset.key > b.dataset.key ? 1 : 0);
        });
        shownGroups.slice().reverse().forEach(function (group) {
          group.parentNode.insertBefore(group, group.parentNode.querySelector(":scope > .change-group"));
        });
        all("main > section.group").forEach(function (section) {
          var count = all(".snap", section).length;
          section.querySelector("h2 .count").textContent = count.toLocaleString("en-US");
          section.toggleAttribute("data-empty", count === 0);
          if (count === 0) section.hidden = true;
        });
        var failedCount = cards.filter(function (card) { return card.dataset.status === "failed"; }).length;
        var failedSection = document.getElementById("failed");
        if (failedSection && failedSection.matches("section.group")) {
          var once = failedSection.querySelector("h3.once");
          var alone = listOf(failedSection).querySelectorAll(":scope > .snap").length;
          if (once) {
            once.hidden = alone === 0 || sizes.length === 0;
            once.textContent = alone.toLocaleString("en-US") + (alone === 1 ? " change seen once" : " changes seen once");
          }
        }
        var sentence = document.querySelector(".changes-summary");
        if (sentence) {
          sentence.innerHTML = groupsSentence(sizes, failedCount);
          sentence.hidden = failedCount === 0;
        }
        all(".difference-groups li[data-difference]").forEach(function (item) {
          var n = cards.filter(function (c) { return c.dataset.status === "failed" && c.dataset.difference === item.dataset.difference; }).length;
          item.dataset.count = String(n);
          item.hidden = n === 0;
          var words = item.firstChild;
          if (words && words.nodeType === 3) {
            words.textContent = words.textContent.replace(/^[\d,]+ snapshots?/, n.toLocaleString("en-US") + (n === 1 ? " snapshot" : " snapshots"));
          }
        });
        // j/k and the viewer's "N of M" go through the cards in the order they now stand.
        cards.sort(function (a, b) { return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1; });
        document.body.dataset.liveUpdates = String(Number(document.body.dataset.liveUpdates || 0) + 1);
      }

      window.snapdiffLive = { update: update, members: members, included: included, groupOf: groupOf };
    })();
    """#

  /// The styles of the member lists and of a member left out.
  static let liveStyles = """
    .group-members { margin: .25rem 0 .5rem; font-size: .85rem; }
    .group-members ul { list-style: none; margin: .25rem 0; padding: 0; max-height: 12rem; overflow: auto; }
    .group-members label { display: inline-flex; gap: .4rem; align-items: center; cursor: pointer; }
    .snap.excluded { opacity: .45; }
    .change-group.changed-since .group-identical { display: none; }

    """
}
