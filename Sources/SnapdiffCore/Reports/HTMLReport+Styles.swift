extension HTMLReport {
  /// The page's style sheet: the system font stack, one colour per status (light and dark
  /// schemes), and the image viewer's layouts, one per view mode (`data-mode` on `.focus`).
  ///
  /// Cards are tiles in a grid (`.cards`) with a thumbnail; the viewer (`.focus`) covers the
  /// window. Its panes hold canvases of the images at their own size, moved and scaled by the
  /// script (`transform`, and `--z` so that box outlines and the divider keep their width): the
  /// baseline and the current frame side by side for 2-up, stacked in the first pane for the
  /// other modes, where the current frame is clipped at the divider (`--pos`), faded
  /// (`--opacity`) or hidden (`data-flipped`).
  static let styles = #"""
    :root {
      color-scheme: light dark;
      --bg: #f6f8fa; --card: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0;
      --code: #eff2f5; --accent: #0969da; --on-status: #ffffff;
      --failed: #cf222e; --new: #0969da; --missing: #9a6700; --rejected: #8250df;
      --approved: #0a7f77; --passed: #1a7f37; --error: #cf222e;
      --checker: #e6e9ec;
      font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
        "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji";
      font-size: 15px; line-height: 1.45;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #0d1117; --card: #151b23; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d;
        --code: #212830; --accent: #4493f8; --on-status: #0d1117;
        --failed: #ff7b72; --new: #58a6ff; --missing: #d29922; --rejected: #bc8cff;
        --approved: #39c5bb; --passed: #3fb950; --error: #ff7b72;
        --checker: #262c36;
      }
    }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    body { margin: 0; background: var(--bg); color: var(--fg); }
    code, .mono { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas,
      "Liberation Mono", monospace; font-size: 0.9em; }
    a { color: var(--accent); }
    .st-failed { --c: var(--failed); } .st-new { --c: var(--new); }
    .st-missing { --c: var(--missing); } .st-rejected { --c: var(--rejected); }
    .st-approved { --c: var(--approved); } .st-passed { --c: var(--passed); }
    .st-error { --c: var(--error); }

    .page-head { padding: 20px 24px 12px; background: var(--card);
      border-bottom: 1px solid var(--line); }
    .page-head h1 { margin: 0; font-size: 1.4rem; display: flex; gap: 0.6em; align-items: baseline;
      flex-wrap: wrap; }
    .page-head h1 .run { font-weight: 400; color: var(--muted); font-size: 1rem; }
    .meta { margin: 4px 0 12px; color: var(--muted); }
    .counts { list-style: none; display: flex; flex-wrap: wrap; gap: 8px; margin: 0; padding: 0; }
    .counts li { display: flex; align-items: center; gap: 6px; padding: 3px 10px;
      border: 1px solid var(--line); border-radius: 999px; background: var(--bg); }
    .counts li b { font-variant-numeric: tabular-nums; }
    .counts li.zero { opacity: 0.5; }
    .dot { width: 10px; height: 10px; border-radius: 50%; background: var(--c, var(--muted)); }

    .toolbar { position: sticky; top: 0; z-index: 5; display: flex; flex-wrap: wrap; gap: 10px 18px;
      align-items: center; padding: 10px 24px; background: var(--card);
      border-bottom: 1px solid var(--line); }
    .toolbar fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap;
      gap: 6px; align-items: center; }
    .toolbar legend { float: left; margin-right: 4px; color: var(--muted); }
    .status-filter label { display: inline-flex; align-items: center; gap: 5px; cursor: pointer;
      padding: 2px 9px 2px 6px; border-radius: 999px; border: 1px solid var(--line); }
    .status-filter label:has(input:checked) { border-color: var(--c); }
    .status-filter input { accent-color: var(--c); margin: 0; }
    .name-filter { min-width: 16em; padding: 5px 9px; border: 1px solid var(--line);
      border-radius: 6px; background: var(--bg); color: var(--fg); font: inherit; }
    .mode-all { display: inline-flex; align-items: center; gap: 6px; color: var(--muted); }
    .mode-all .modes { margin: 0; }
    .shown { color: var(--muted); margin-left: auto; font-variant-numeric: tabular-nums; }

    main { padding: 8px 24px 40px; max-width: 1400px; }
    .group > h2, .group > details > summary { font-size: 1.1rem; margin: 24px 0 10px;
      display: flex; gap: 8px; align-items: center; }
    .group > details > summary { cursor: pointer; }
    .group > details > summary h2 { font-size: inherit; margin: 0; display: inline; }
    .badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 0.8rem;
      font-weight: 600; background: var(--c); color: var(--on-status); white-space: nowrap; }
    .badge.outline { background: transparent; color: var(--c); border: 1px solid var(--c); }
    .count { color: var(--muted); font-weight: 400; font-variant-numeric: tabular-nums; }
    .empty { color: var(--muted); }

    .changes-summary { margin: 14px 0 0; font-size: 1.05rem; }
    .changes-summary a { color: inherit; }
    .change-group { border: 1px solid var(--line); border-radius: 10px; padding: 10px 14px 4px;
      margin: 0 0 16px; background: color-mix(in srgb, var(--card) 60%, var(--bg)); }
    .group-head { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; }
    .group-head h3 { margin: 0; font-size: 1rem; }
    .group-head .muted, .muted { color: var(--muted); font-size: 0.9em; }
    .group-actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-left: auto; }
    .difference-groups .group-actions { display: inline-flex; margin-left: 8px; }
    .once { font-size: 1rem; margin: 18px 0 8px; color: var(--muted); font-weight: 600; }
    .cards { display: grid; gap: 14px; margin: 10px 0 14px;
      grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); }
    .snap[data-paged] { display: none; }
    .more { font: inherit; padding: 5px 14px; border-radius: 6px; border: 1px solid var(--line);
      background: var(--card); color: var(--fg); cursor: pointer; margin: 0 0 16px; }

    .snap { scroll-margin-top: calc(var(--toolbar-height, 110px) + 12px); background: var(--card);
      border: 1px solid var(--line); border-top: 4px solid var(--c); border-radius: 8px;
      padding: 10px 12px 12px; min-width: 0; display: flex; flex-direction: column; gap: 4px; }
    .snap:focus { outline: none; }
    .snap.current-snap { outline: 2px solid var(--accent); outline-offset: 2px; }
    .snap-head { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; }
    .snap-head h3 { margin: 0; font-size: 0.95rem; font-weight: 600; overflow-wrap: anywhere;
      flex: 1 1 100%; }
    .snap-head h3 .group-name { color: var(--muted); font-weight: 400; }
    .snap-head .anchor { color: var(--muted); text-decoration: none; margin-left: auto; }
    .figures, .areas, .note { margin: 0; font-size: 0.88em; }
    .snap .areas, .snap .note, .snap .layout, .snap .commands, .snap .files { display: none; }
    .areas, .note { color: var(--muted); }
    .problem { margin: 4px 0 0; padding: 6px 8px; border-radius: 6px; color: var(--error);
      border: 1px solid var(--error); overflow-wrap: anywhere; font-size: 0.88em; }
    .thumb { display: block; padding: 0; margin: 4px 0 0; border: 0; background: none;
      cursor: zoom-in; align-self: center; }
    .thumb .layer { margin: 0; }
    .thumb img { display: block; width: auto; height: auto; max-width: 100%; max-height: 300px;
      min-width: 60px; min-height: 60px; object-fit: contain;
      background: repeating-conic-gradient(var(--checker) 0 25%, transparent 0 50%) 0 0 / 16px 16px;
      outline: 1px solid var(--line); }
    .layer.broken img { display: none; }
    .layer.broken::before { content: "could not load " attr(data-src); display: block;
      min-width: 120px;
      padding: 24px 12px; border: 1px dashed var(--error); color: var(--error); border-radius: 6px;
      overflow-wrap: anywhere; font-size: 0.88em; }

    .modes { display: inline-flex; border: 1px solid var(--line); border-radius: 6px;
      overflow: hidden; }
    .modes button, .controls button, .copy, .focus-bar > button { font: inherit; font-size: 0.88em;
      padding: 4px 10px; border: 0; background: var(--card); color: var(--fg); cursor: pointer; }
    .modes > * + * { border-left: 1px solid var(--line); }
    .modes button[aria-pressed="true"] { background: var(--accent); color: var(--on-status); }
    .modes button[hidden] + * { border-left: 0; }

    /* The viewer: over the whole window, one snapshot, fitted by default. */
    body.viewing { overflow: hidden; }
    .focus { position: fixed; inset: 0; z-index: 20; background: var(--bg); display: flex;
      flex-direction: column; }
    .focus:focus { outline: none; }
    .focus-bar, .focus-controls { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center;
      padding: 6px 12px; background: var(--card); border-bottom: 1px solid var(--line); }
    .focus-bar > button { border: 1px solid var(--line); border-radius: 6px; }
    .focus-bar > button:disabled { opacity: 0.5; cursor: default; }
    .focus-pos, .change-pos, .zoom-level, .hint { color: var(--muted); font-size: 0.88em;
      font-variant-numeric: tabular-nums; }
    .zoom-level { padding: 4px 8px; min-width: 4.5em; text-align: center; }
    .focus-title { margin: 0; font-size: 1rem; overflow-wrap: anywhere; max-width: 40em; }
    .focus-actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-left: auto; }
    .focus-controls { padding: 4px 12px; min-height: 34px; }
    .focus-controls .hint { margin-left: auto; }
    .controls { display: none; align-items: center; gap: 8px; color: var(--muted); font-size: 0.9em; }
    .controls button { border: 1px solid var(--line); border-radius: 6px; }
    .focus[data-mode="slider"] .for-slider, .focus[data-mode="blend"] .for-blend,
    .focus[data-mode="toggle"] .for-toggle { display: flex; }
    .focus-body { flex: 1; min-height: 0; display: flex; }
    .panes { flex: 1; min-width: 0; display: grid; grid-template-columns: 1fr 1fr; gap: 8px; padding: 8px; }
    .focus:not([data-mode="2up"]) .panes { grid-template-columns: 1fr; }
    .focus:not([data-mode="2up"]) .pane-b { display: none; }
    .pane { position: relative; overflow: hidden; min-width: 0; min-height: 0; cursor: grab;
      touch-action: none; user-select: none; border: 1px solid var(--line); border-radius: 6px;
      background: repeating-conic-gradient(var(--checker) 0 25%, transparent 0 50%) 0 0 / 16px 16px; }
    .pane:active { cursor: grabbing; }
    .focus[data-mode="toggle"] .pane { cursor: pointer; }
    .pane-label { position: absolute; top: 6px; left: 6px; padding: 1px 7px; border-radius: 4px;
      background: rgb(0 0 0 / 0.6); color: #fff; font-size: 0.82em; pointer-events: none; }
    .pane-label:empty { display: none; }
    .canvas { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
    .canvas .layer { position: absolute; left: 0; top: 0; margin: 0; }
    .canvas .layer img { display: block; max-width: none; image-rendering: auto; }
    .focus[data-fit] .canvas .layer img { image-rendering: auto; }
    .canvas .layer.empty { display: none; }
    .pane-a .layer.top, .pane-a .layer.diff, .pane-b .layer.base, .pane-b .layer.diff { display: none; }
    .focus[data-mode="slider"] .pane-a .layer.top, .focus[data-mode="blend"] .pane-a .layer.top,
    .focus[data-mode="toggle"] .pane-a .layer.top, .focus[data-mode="single"] .pane-a .layer.top,
    .focus[data-mode="diff"] .pane-a .layer.diff { display: block; }
    .focus[data-mode="diff"] .pane-a .layer.base { display: none; }
    .focus[data-mode="single"] .pane-a .layer.empty { display: none; }
    .focus[data-mode="slider"] .pane-a .layer.top { clip-path: inset(0 0 0 var(--pos, 50%)); }
    .focus[data-mode="blend"] .pane-a .layer.top { opacity: var(--opacity, 0.5); }
    .focus[data-mode="toggle"][data-flipped] .pane-a .layer.top { visibility: hidden; }
    .divider { display: none; }
    .focus[data-mode="slider"] .pane-a .divider { display: block; position: absolute; top: 0;
      bottom: 0; left: var(--pos, 50%); width: calc(2px / var(--z, 1)); background: var(--accent);
      box-shadow: 0 0 0 calc(1px / var(--z, 1)) rgb(255 255 255 / 0.7); pointer-events: none; }
    .boxes { position: absolute; inset: 0; pointer-events: none; }
    .box { position: absolute; box-sizing: border-box; outline: calc(2px / var(--z, 1)) solid #ff2d55;
      outline-offset: calc(2px / var(--z, 1));
      box-shadow: 0 0 0 calc(4px / var(--z, 1)) rgb(255 255 255 / 0.5); }
    .box.current { outline-color: #ffcc00; outline-width: calc(3px / var(--z, 1)); }
    .focus[data-mode="diff"] .box { outline-color: #0969da; }
    .focus-side { width: 300px; flex: none; overflow: auto; padding: 10px 14px;
      border-left: 1px solid var(--line); background: var(--card); display: flex;
      flex-direction: column; gap: 8px; }
    .focus-side h3 { margin: 6px 0 0; font-size: 0.95rem; }
    .focus-side .layout { margin: 0; padding-left: 1.2em; font-size: 0.9em; }
    .focus-side .files a { margin-right: 10px; }
    @media (max-width: 900px) { .focus-side { display: none; } }

    .commands { margin-top: 12px; display: grid; gap: 6px; }
    .command { display: flex; align-items: stretch; max-width: 100%; border: 1px solid var(--line);
      border-radius: 6px; overflow: hidden; }
    .command code { flex: 1; padding: 5px 10px; background: var(--code); overflow-x: auto;
      white-space: pre; }
    .copy { border-left: 1px solid var(--line); }
    .files { margin: 0; font-size: 0.88em; color: var(--muted); }
    .files a { margin-right: 10px; }
    footer { padding: 0 24px 32px; color: var(--muted); font-size: 0.88em; }

    /* A phone's width: the sticky toolbar collapses to one row that scrolls sideways (its
       legend and the shown count left out), so the cards keep the height. */
    @media (max-width: 600px) {
      .toolbar { flex-wrap: nowrap; overflow-x: auto; gap: 8px; padding: 6px 12px; white-space: nowrap; }
      .toolbar fieldset { flex-wrap: nowrap; }
      .toolbar legend, .toolbar .shown { display: none; }
      .name-filter { min-width: 9em; }
      .page-head { padding: 12px 12px 8px; }
      main { padding: 8px 12px 32px; }
    }
    """#
}
