import {Box, Text} from 'ink';
import {cellWidth, singleLine} from '../cell-text.js';
import {elapsedOf} from '../elapsed.js';
import {useScrollWindow} from '../hooks/use-scroll-window.js';
import type {NodeTiming} from '../../state/store.js';
import type {Theme} from '../theme.js';
import {useTheme} from '../theme-context.js';
import type {TreeRow} from '../tree-rows.js';
import {MoreLine} from './more-line.js';
import {NodeRow, namePart, spinsByTimer, type TreeColumns} from './node-row.js';
import {formatDuration} from '../../model/format-duration.js';
import {formatEta, nodeEta, type Expectation} from '../../model/eta.js';
import {statusText} from '../../model/status.js';

/** Column widths from all visible rows (not just the window), so scrolling does not shift columns. */
export function treeColumns(rows: readonly TreeRow[], elapsed: ReadonlyArray<number | undefined>, width: number, theme: Theme): TreeColumns {
	let name = 0;
	let strategy = 0;
	let status = 0;
	for (const row of rows) {
		const {before, icon, label} = namePart(row, theme);
		name = Math.max(name, cellWidth(before) + cellWidth(icon) + 1 + cellWidth(label));
		strategy = Math.max(strategy, cellWidth(singleLine(row.node.strategy ?? '')));
		// Raw words are cut at 14 cells; a reason after them (`pending (running per progress)`) gets its room.
		const reason = row.node.statusReason ? cellWidth(singleLine(statusText({status: '', statusReason: row.node.statusReason}))) + 1 : 0;
		status = Math.max(status, Math.min(14, cellWidth(singleLine(row.node.status))) + reason);
	}

	// A running row's spinner sits in front of its timer (`⠹ 3:41`): two more cells.
	const elapsedWidth = Math.max(0, ...elapsed.map((ms, i) => (ms === undefined ? 0 : formatDuration(ms).length + (spinsByTimer(rows[i]!, ms, theme) ? 2 : 0))));
	// Leave room for the timers and some message: long names are cut, not the timers.
	const room = Math.max(20, width - 2 - elapsedWidth - 10);
	const statusWidth = Math.min(status, 36);
	const strategyWidth = Math.min(strategy, Math.max(0, Math.floor(room * 0.2)));
	const nameWidth = Math.min(name, Math.max(12, room - statusWidth - strategyWidth - 4));
	return {name: nameWidth, strategy: strategyWidth, status: statusWidth, elapsed: elapsedWidth};
}

export type PlanTreeViewProps = {
	readonly rows: readonly TreeRow[];
	readonly cursor: number;
	/** Node id → timing, from the store. */
	readonly timings?: ReadonlyMap<string, NodeTiming>;
	/** Node id → what past runs say (the ETA history); looked up, never computed, per frame. */
	readonly expectations?: ReadonlyMap<string, Expectation>;
	readonly now: number;
	/** Most lines to use. */
	readonly height: number;
	readonly width: number;
};

/** The tree of one object, windowed to `height` lines around the cursor. */
export function PlanTreeView({rows, cursor, timings, expectations, now, height, width}: PlanTreeViewProps) {
	const theme = useTheme();
	const window = useScrollWindow(rows.length, height, cursor);
	if (height <= 0) {
		return null;
	}

	if (rows.length === 0) {
		return <Text {...theme.style('muted')}>  no plans in this object yet</Text>;
	}

	const elapsed = rows.map(row => elapsedOf(timings?.get(row.node.id), now));
	const columns = treeColumns(rows, elapsed, width, theme);
	return (
		<Box flexDirection="column" width={width}>
			{window.above > 0 && height >= 3 ? <MoreLine direction="above" count={window.above} /> : undefined}
			{rows.slice(window.start, window.end).map((row, i) => {
				const timing = timings?.get(row.node.id);
				const eta = expectations && expectations.size > 0 ? nodeEta(row.node, expectations, timing?.startedAt, now) : undefined;
				return (
					<NodeRow
						key={row.node.id}
						row={row}
						selected={window.start + i === cursor}
						columns={columns}
						elapsed={elapsed[window.start + i]}
						retries={timing?.retries}
						eta={eta ? formatEta(eta) : undefined}
						now={now}
						width={width}
					/>
				);
			})}
			{window.below > 0 && height >= 3 ? <MoreLine direction="below" count={window.below} /> : undefined}
		</Box>
	);
}
