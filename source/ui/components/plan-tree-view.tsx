import {Box, Text} from 'ink';
import {useMemo} from 'react';
import {singleLine} from '../cell-text.js';
import {displayWidth} from '../../model/display-width.js';
import {elapsedOf} from '../elapsed.js';
import type {ScrollWindow} from '../scroll-window.js';
import {useTickValue} from '../ticks.js';
import type {NodeTiming} from '../../state/store.js';
import type {Theme} from '../theme.js';
import {useTheme} from '../theme-context.js';
import type {TreeRow} from '../tree-rows.js';
import type {PlanNode} from '../../model/plan-tree.js';
import {MoreLine} from './more-line.js';
import {NodeRow, namePart, spinsByTimer, type TreeColumns} from './node-row.js';
import {formatDuration} from '../../model/format-duration.js';
import type {Expectation} from '../../model/eta.js';
import {statusText} from '../../model/status.js';
import {treeColumnWidths} from '../tree-columns.js';

/** What the column widths need from all visible rows, computed once per change of the rows or timings, not per tick. */
export type TreeColumnsBasis = {
	readonly name: number;
	readonly strategy: number;
	readonly status: number;
	/** Widest status word without its reason. */
	readonly word: number;
	/** Some row has text after its timer (message, note, update time): the columns leave it some room. */
	readonly trailing: boolean;
	/** Widest finished timer (spinner included): it no longer changes. */
	readonly closedElapsed: number;
	/** Earliest start of a running timer, with and without a spinner in front: the widest of them at any `now`. */
	readonly openSpinningFrom?: number;
	readonly openFrom?: number;
};

/**
 * One walk over the visible rows (a fully expanded 100 000-step plan has 100 000): text widths and timers. A
 * running timer's width only grows with time, so the widest one at any moment is the one that started first.
 */
/** What one row gives the column widths, its timer aside. */
type RowWidths = {
	/** The node's id, to look its timer up with. */
	readonly id: string;
	readonly name: number;
	readonly strategy: number;
	readonly status: number;
	readonly word: number;
	readonly trailing: boolean;
	/** spinsByTimer with some timer: whether a running timer has a spinner in front. */
	readonly spins: boolean;
};

/**
 * The widths of each node's row, kept with the node (nodes are immutable, and the store keeps a big plan's unchanged
 * ones by identity): an update of one step of a 500-step plan measures that row, not all of them. The row's place
 * (depth, fold marker) and the theme are checked. Kept only for trees of up to `maxKeptRows` rows: a fully expanded
 * 100 000-step plan would hold an entry per row (megabytes) for what is then a rare update.
 */
const rowWidthsOf = new WeakMap<PlanNode, {readonly place: number; readonly theme: Theme; readonly widths: RowWidths}>();
const maxKeptRows = 5000;

/** Depth and fold marker of a row, in one number. */
function placeOf(row: TreeRow): number {
	return (row.depth * 4) + (row.expandable ? 2 : 0) + (row.expanded ? 1 : 0);
}

function rowWidths(row: TreeRow, theme: Theme, keep: boolean): RowWidths {
	const hit = keep ? rowWidthsOf.get(row.node) : undefined;
	if (hit && hit.theme === theme && hit.place === placeOf(row)) {
		return hit.widths;
	}

	// A Kanister action's object is not counted: on its one row it takes the padding and gives way there (node-row.tsx),
	// rather than push every other row's status and message to the right.
	const {before, icon, label} = namePart(row, theme);
	// Raw words are cut at 14 cells; a reason after them (`pending (running per progress)`) gets its room.
	const reason = row.node.statusReason
		? displayWidth(singleLine(statusText({status: '', statusReason: row.node.statusReason}), theme.glyphs.lineBreak)) + 1
		: 0;
	const raw = Math.min(14, displayWidth(singleLine(row.node.status, theme.glyphs.lineBreak)));
	const widths: RowWidths = {
		id: row.node.id,
		name: displayWidth(before) + displayWidth(icon) + 1 + displayWidth(label),
		strategy: displayWidth(singleLine(row.node.strategy ?? '', theme.glyphs.lineBreak)),
		status: raw + reason,
		word: raw,
		trailing: Boolean(row.node.message || row.node.note || row.node.active || row.node.state === 'retrying'),
		// Any defined elapsed: spinsByTimer only asks whether there is one.
		spins: spinsByTimer(row, 0, theme),
	};
	if (keep) {
		rowWidthsOf.set(row.node, {place: placeOf(row), theme, widths});
	}

	return widths;
}

export function treeColumnsBasis(
	rows: readonly TreeRow[],
	timings: ReadonlyMap<string, NodeTiming> | undefined,
	theme: Theme,
): TreeColumnsBasis {
	let name = 0;
	let strategy = 0;
	let status = 0;
	let word = 0;
	let trailing = false;
	let closedElapsed = 0;
	let openSpinningFrom: number | undefined;
	let openFrom: number | undefined;
	const keep = rows.length <= maxKeptRows;
	for (const row of rows) {
		const widths = rowWidths(row, theme, keep);
		name = Math.max(name, widths.name);
		strategy = Math.max(strategy, widths.strategy);
		status = Math.max(status, widths.status);
		word = Math.max(word, widths.word);
		trailing ||= widths.trailing;
		const timing = timings?.get(widths.id);
		if (timing?.startedAt === undefined) {
			continue;
		}

		if (timing.endedAt === undefined) {
			if (widths.spins) {
				openSpinningFrom = Math.min(openSpinningFrom ?? timing.startedAt, timing.startedAt);
			} else {
				openFrom = Math.min(openFrom ?? timing.startedAt, timing.startedAt);
			}
		} else {
			closedElapsed = Math.max(closedElapsed, formatDuration(elapsedOf(timing, 0)!).length + (widths.spins ? 2 : 0));
		}
	}

	return {name, strategy, status, word, trailing, closedElapsed, openSpinningFrom, openFrom};
}

/** Width of the ELAPSED column at `now` (a running row's spinner sits in front of its timer, `⠹ 3:41`: two more cells). */
export function treeElapsedWidth(basis: TreeColumnsBasis, now: number): number {
	const open = (from: number | undefined, extra: number) => (
		from === undefined ? 0 : formatDuration(elapsedOf({startedAt: from}, now)!).length + extra
	);
	return Math.max(basis.closedElapsed, open(basis.openSpinningFrom, 2), open(basis.openFrom, 0));
}

/** Column widths at `now`, from the basis: constant work per tick however long the tree is. */
export function treeColumnsAt(basis: TreeColumnsBasis, now: number, width: number): TreeColumns {
	return treeColumnsWith(basis, treeElapsedWidth(basis, now), width);
}

/** What gives way on a narrow line (tree-columns.ts): a status's reason and names, never a state word or a timer. */
export function treeColumnsWith(basis: TreeColumnsBasis, elapsedWidth: number, width: number, eta = false, marker = 1): TreeColumns {
	const {name, strategy, status, word, trailing} = basis;
	return treeColumnWidths({name, strategy, status, word, elapsed: elapsedWidth, trailing: trailing || eta}, width, marker);
}

export type PlanTreeViewProps = {
	readonly rows: readonly TreeRow[];
	readonly cursor: number;
	/** The rows shown, around the cursor (useScrollWindow over `height` lines). */
	readonly window: ScrollWindow;
	/** Node id → timing, from the store. */
	readonly timings?: ReadonlyMap<string, NodeTiming>;
	/** Node id → what past runs say (the ETA history); looked up, never computed, per frame. */
	readonly expectations?: ReadonlyMap<string, Expectation>;
	/** Most lines to use. */
	readonly height: number;
	readonly width: number;
};

/** The tree of one object, windowed to `height` lines around the cursor. */
export function PlanTreeView({rows, cursor, window, timings, expectations, height, width}: PlanTreeViewProps) {
	const theme = useTheme();
	// Per tick only the rows on screen cost anything: the basis is recomputed when rows or timings change.
	const basis = useMemo(() => treeColumnsBasis(rows, timings, theme), [rows, timings, theme]);
	// A tick re-renders the tree only when the ELAPSED column gets wider; the timers redraw themselves.
	const elapsedWidth = useTickValue(now => treeElapsedWidth(basis, now));
	const eta = expectations !== undefined && expectations.size > 0;
	const marker = displayWidth(theme.glyphs.ellipsis);
	const columns = useMemo(() => treeColumnsWith(basis, elapsedWidth, width, eta, marker), [basis, elapsedWidth, width, eta, marker]);
	if (height <= 0) {
		return null;
	}

	if (rows.length === 0) {
		return <Text {...theme.style('muted')}>  no plans in this object yet</Text>;
	}

	return (
		<Box flexDirection="column" width={width}>
			{window.above > 0 && height >= 3 ? <MoreLine direction="above" count={window.above} /> : undefined}
			{rows.slice(window.start, window.end).map((row, i) => (
				<NodeRow
					key={row.node.id}
					row={row}
					selected={window.start + i === cursor}
					columns={columns}
					startedAt={timings?.get(row.node.id)?.startedAt}
					endedAt={timings?.get(row.node.id)?.endedAt}
					atLeast={timings?.get(row.node.id)?.atLeast === true}
					retries={timings?.get(row.node.id)?.retries}
					expectations={expectations}
					width={width}
				/>
			))}
			{window.below > 0 && height >= 3 ? <MoreLine direction="below" count={window.below} /> : undefined}
		</Box>
	);
}
