// The view page's style (sim/view/view_page.h): a light page, the wheel's
// slots as a grid of small cells, highlights for what the last step did.
#include "sim/view/view_page.h"

namespace timersim {

const char view_style[] = R"css(
body { font: 13px/1.35 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
header { padding: 8px 14px; background: #1d2330; color: #fff; }
header h1 { font-size: 15px; margin: 0 0 6px; font-weight: 600; }
#controls { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
#controls button, #controls select { font: inherit; padding: 2px 8px; }
#controls input[type=range] { width: 260px; }
main { display: flex; gap: 10px; padding: 10px 12px; align-items: flex-start; }
#left { flex: 0 0 auto; }
#right { flex: 1 1 320px; min-width: 300px; max-width: 520px; }
#frame-info { font-weight: 600; margin-bottom: 6px; }
.base { margin-bottom: 8px; }
.base h2 { font-size: 12px; margin: 4px 0; color: #555; font-weight: 600; }
.level { display: flex; align-items: flex-start; margin: 1px 0; }
.level .label { width: 130px; font: 11px monospace; color: #333; padding-top: 2px; white-space: nowrap; }
.level .label b { color: #1d2330; }
.level .row-start { width: 26px; font: 9px monospace; color: #666; text-align: right; padding: 4px 4px 0 0; }
.slots { display: grid; grid-template-columns: repeat(64, 13px); gap: 1px; }
.ruler .tick { height: 11px; font: 9px monospace; color: #555; white-space: nowrap; overflow: visible;
	border-left: 1px solid transparent; padding-left: 1px; line-height: 11px; }
.ruler .tick.c8 { border-left-color: #8a93a3; }
.cell { width: 13px; height: 17px; background: #fff; border: 1px solid #d6dae1; box-sizing: border-box;
	position: relative; cursor: pointer; display: flex; flex-direction: column-reverse; align-items: center;
	padding-bottom: 1px; overflow: hidden; }
.cell i { display: block; width: 9px; height: 2px; margin-top: 1px; background: #3a64b5; }
.cell i.def { background: #9bb3df; }
.cell span { font: 8px monospace; color: #1d2330; line-height: 8px; }
.cell.c8 { border-left-color: #8a93a3; }
.cell.idx { border: 2px solid #c0392b; }
.cell.sel { outline: 2px solid #1d2330; z-index: 2; }
.cell.hl-exp { background: #f6c5c0; }
.cell.hl-casc { background: #f8d9a8; }
.cell.hl-moved { background: #c8dcf8; }
.cell.hl-placed { background: #cdebd0; }
.cell.hl-del { background: #e3e3e3; }
.legend { font-size: 11px; color: #555; margin: 4px 0 8px; max-width: 1060px; }
.legend div { margin: 2px 0; }
.legend .cell.sample { display: inline-flex; vertical-align: middle; margin: 0 2px; cursor: default; }
.legend code { font: 11px monospace; color: #1d2330; }
#numbering { font-size: 12px; color: #555; margin: -2px 0 6px; }
.legend b { display: inline-block; width: 10px; height: 10px; vertical-align: middle; margin: 0 3px 0 8px; border: 1px solid #aaa; }
#changes { font: 11px monospace; background: #fff; border: 1px solid #d6dae1; padding: 4px 6px;
	max-height: 150px; overflow-y: auto; width: 1000px; box-sizing: border-box; white-space: pre-wrap; }
#timeline { margin-top: 8px; }
#timeline svg { display: block; background: #fff; border: 1px solid #d6dae1; margin-bottom: 2px; cursor: crosshair; }
#timeline .note { font-size: 12px; color: #8a4b00; min-height: 16px; }
.chart-title { font-size: 11px; fill: #333; }
.axis { font-size: 10px; fill: #555; }
#slot-panel { background: #fff; border: 1px solid #d6dae1; padding: 6px 8px; margin-bottom: 10px; min-height: 40px; }
#slot-panel h3, #report h3 { font-size: 13px; margin: 4px 0; }
#slot-panel li { margin-bottom: 4px; }
#slot-panel .why { color: #444; font-size: 12px; white-space: pre-wrap; }
#statements { font: 12px monospace; background: #fff; border: 1px solid #d6dae1; margin: 0; padding: 4px 6px 4px 36px;
	width: 1000px; box-sizing: border-box; max-height: 320px; overflow-y: auto; position: relative; }
#statements li { cursor: pointer; padding: 1px 4px; }
#statements li.cur { background: #fff3c4; font-weight: 600; }
table { border-collapse: collapse; margin-bottom: 10px; background: #fff; font-size: 12px; }
td, th { border: 1px solid #d6dae1; padding: 2px 6px; text-align: right; }
th { background: #eef0f4; }
td:first-child, th:first-child { text-align: left; }
.warn { color: #a33; font-weight: 600; }
#time { padding: 0 14px 14px; max-width: 1372px; }
#report td, #report th { padding: 2px 3px; }
#report table { font-size: 11px; }
#time table { width: 100%; }
#time #time-work table { width: auto; }
#time td { white-space: pre-line; }
#time td:first-child { white-space: normal; overflow-wrap: anywhere; max-width: 260px; }
#time h3 { font-size: 13px; margin: 4px 0; }
#time .note { font-size: 12px; color: #555; }
)css";

}  // namespace timersim
