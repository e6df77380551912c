/**
 * A tree row's ETA is a timer: on a short line the message after it gives way (cut marked), the ETA never does. With
 * the trailing text cut to a fixed 12 cells, `overdue 10s` (13 with its gap) used to end `overdue 1…`.
 */
import {afterEach, expect, test} from 'vitest';
import {NodeRow} from '../../source/ui/components/node-row.js';
import type {PlanNode} from '../../source/model/plan-tree.js';
import {ThemeContext} from '../../source/ui/theme-context.js';
import {createTheme} from '../../source/ui/theme.js';
import {TicksContext, tickSource} from '../../source/ui/ticks.js';
import {displayWidth} from '../../source/model/display-width.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {cleanupUi, renderUi} from '../helpers/ui.js';

afterEach(cleanupUi);

const t0 = Date.UTC(2026, 10, 30, 11, 0, 0);

test.each([[false, '…'], [true, '...']])('ascii %s: `overdue 10s` whole, the message after it cut with a marker', async (ascii, marker) => {
	const theme = createTheme({color: false, ascii, timeZone: 'UTC'});
	const node: PlanNode = {
		id: 'plan:deploy/phase:main/step:init',
		kind: 'step',
		name: 'init',
		status: 'IN_PROGRESS',
		state: 'running',
		message: 'waiting for the job migrate-database-schema-to-v42 to complete',
		children: [],
	};
	// The step started 18 s ago; its slowest past run took 10 s: 8 s over, shown as `overdue 10s`.
	const expectations = new Map([[node.id, {medianMs: 8000, maxMs: 10_000, runs: 3}]]);
	const width = 60;
	const app = renderUi(
		<ThemeContext.Provider value={theme}>
			<TicksContext.Provider value={tickSource(new FakeClock(t0))}>
				<NodeRow
					row={{node, depth: 2, expandable: false, expanded: false}}
					selected={false}
					columns={{name: 30, strategy: 0, status: 11, elapsed: 6}}
					startedAt={t0 - 18_000}
					expectations={expectations}
					width={width}
				/>
			</TicksContext.Provider>
		</ThemeContext.Provider>,
		{columns: width},
	);
	const frame = await app.waitForFrame(f => f.includes('overdue'), {what: 'the row'});
	const line = frame.split('\n')[0]!;
	expect(displayWidth(line)).toBeLessThanOrEqual(width);
	expect(line).toMatch(ascii ? /IN_PROGRESS +0:18 {2}overdue 10s .*\.\.\.$/ : /IN_PROGRESS +. 0:18 {2}overdue 10s .*…$/);
	expect(line.endsWith(marker)).toBe(true);
});
