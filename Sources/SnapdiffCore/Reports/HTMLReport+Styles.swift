extension HTMLReport {
  /// The page's style sheet: the system font stack, one colour per status (light and dark
  /// schemes), and the image viewer's layouts, one per view mode (`data-mode` on `.viewer`).
  ///
  /// The viewer lays its layers (`.base` baseline, `.top` current, `.diff`) out in a grid: side
  /// by side for 2-up, stacked in one cell for the other modes, where the current frame is
  /// clipped at the divider (`--pos`), faded (`--opacity`) or hidden (`data-flipped`). The
  /// script sets `--w` (the widest image, in CSS pixels) on the stage and `--iw` (a share of it)
  /// on each image, so that images of different sizes keep one scale.
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

    .snap { scroll-margin-top: calc(var(--toolbar-height, 110px) + 12px); background: var(--card); border: 1px solid var(--line);
      border-left: 4px solid var(--c); border-radius: 8px; padding: 12px 16px 14px;
      margin: 0 0 14px; }
    .snap-head { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; }
    .snap-head h3 { margin: 0; font-size: 1rem; font-weight: 600; overflow-wrap: anywhere; }
    .snap-head h3 .group-name { color: var(--muted); font-weight: 400; }
    .snap-head .anchor { color: var(--muted); text-decoration: none; margin-left: auto; }
    .figures, .areas, .note { margin: 6px 0 0; }
    .areas, .note { color: var(--muted); font-size: 0.92em; }
    .problem { margin: 8px 0 0; padding: 8px 10px; border-radius: 6px; color: var(--error);
      border: 1px solid var(--error); overflow-wrap: anywhere; }

    .viewer { margin-top: 10px; }
    .modes { display: inline-flex; border: 1px solid var(--line); border-radius: 6px;
      overflow: hidden; margin-bottom: 8px; }
    .modes button, .controls button, .copy { font: inherit; font-size: 0.88em; padding: 4px 10px;
      border: 0; background: var(--card); color: var(--fg); cursor: pointer; }
    .modes button + button { border-left: 1px solid var(--line); }
    .modes button[aria-pressed="true"] { background: var(--accent); color: var(--on-status); }
    .stage { position: relative; display: grid; gap: 12px; width: fit-content; max-width: 100%;
      grid-template-columns: minmax(0, var(--w, max-content)); }
    .layer { margin: 0; min-width: 0; position: relative; }
    .layer img { display: block; width: var(--iw, auto); max-width: 100%; height: auto;
      background: repeating-conic-gradient(var(--checker) 0 25%, transparent 0 50%) 0 0 / 16px 16px;
      outline: 1px solid var(--line); }
    .layer figcaption { font-size: 0.82em; color: var(--muted); margin-top: 3px;
      white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .layer.broken img { display: none; }
    .layer.broken::before { content: "could not load " attr(data-src); display: block;
      padding: 24px 12px; border: 1px dashed var(--error); color: var(--error); border-radius: 6px;
      overflow-wrap: anywhere; font-size: 0.88em; }
    .slider, .divider { display: none; }

    .viewer[data-mode="2up"] .stage,
    .viewer[data-mode="single"] .stage { grid-template-columns: none; grid-auto-flow: column;
      grid-auto-columns: minmax(0, var(--w, max-content)); }
    .viewer[data-mode="2up"] .layer.diff { display: none; }
    .viewer[data-mode="slider"] .layer, .viewer[data-mode="blend"] .layer,
    .viewer[data-mode="toggle"] .layer, .viewer[data-mode="diff"] .layer { grid-area: 1 / 1; }
    .viewer[data-mode="slider"] .layer.diff, .viewer[data-mode="blend"] .layer.diff,
    .viewer[data-mode="toggle"] .layer.diff { display: none; }
    .viewer[data-mode="diff"] .layer.base, .viewer[data-mode="diff"] .layer.top { display: none; }
    .viewer:not([data-mode="2up"], [data-mode="single"]) figcaption {
      position: absolute; top: 6px; left: 6px; margin: 0; padding: 1px 7px; border-radius: 4px;
      background: rgb(0 0 0 / 0.6); color: #fff; pointer-events: none; }
    .viewer[data-mode="slider"] .layer.top figcaption,
    .viewer[data-mode="blend"] .layer.top figcaption { left: auto; right: 6px; }
    .viewer[data-mode="slider"] .layer.top { clip-path: inset(0 0 0 var(--pos, 50%)); }
    .viewer[data-mode="slider"] .divider { display: block; position: absolute; top: 0; bottom: 0;
      left: var(--pos, 50%); width: 2px; margin-left: -1px; background: var(--accent);
      pointer-events: none; box-shadow: 0 0 0 1px rgb(255 255 255 / 0.7); }
    .viewer[data-mode="slider"] .slider { display: block; position: absolute; inset: 0;
      width: 100%; height: 100%; margin: 0; opacity: 0; cursor: ew-resize; appearance: none; }
    .slider::-webkit-slider-thumb { appearance: none; width: 2px; height: 100vh; }
    .slider::-moz-range-thumb { width: 2px; height: 100vh; border: 0; }
    .viewer[data-mode="blend"] .layer.top { opacity: var(--opacity, 0.5); }
    .viewer[data-mode="toggle"] .stage { cursor: pointer; }
    /* The slider's invisible thumb is 100vh tall: clipped, it cannot take the clicks meant for
       the controls above a short image. */
    .viewer[data-mode="slider"] .stage { overflow: hidden; }
    .viewer[data-mode="toggle"][data-flipped] .layer.top { visibility: hidden; }

    .controls { display: none; margin-top: 8px; align-items: center; gap: 8px;
      color: var(--muted); font-size: 0.9em; }
    .controls button { border: 1px solid var(--line); border-radius: 6px; }
    .viewer[data-mode="slider"] .for-slider, .viewer[data-mode="blend"] .for-blend,
    .viewer[data-mode="toggle"] .for-toggle { display: flex; }

    .commands { margin-top: 12px; display: grid; gap: 6px; }
    .command { display: flex; align-items: stretch; max-width: 100%; border: 1px solid var(--line);
      border-radius: 6px; overflow: hidden; }
    .command code { flex: 1; padding: 5px 10px; background: var(--code); overflow-x: auto;
      white-space: pre; }
    .copy { border-left: 1px solid var(--line); }
    .files { margin: 8px 0 0; font-size: 0.88em; color: var(--muted); }
    .files a { margin-right: 10px; }
    footer { padding: 0 24px 32px; color: var(--muted); font-size: 0.88em; }
    """#
}
