import {memo, useMemo} from 'react';
import type {Expectation} from '../../model/eta.js';
import type {PlanNode, PlanObject} from '../../model/plan-tree.js';
import type {NodeTiming} from '../../state/store.js';
import type {FoldOverrides, TreeRow} from '../tree-rows.js';
import {listTreeRows} from '../tree-list.js';
import {useRowEntry} from '../hooks/use-row-entry.js';
import {displayWidth} from '../../model/display-width.js';
import {useTickValue} from '../ticks.js';
import {useTheme} from '../theme-context.js';
import {NodeRow} from './node-row.js';
import {treeColumnsBasis, treeColumnsWith, treeElapsedWidth} from './plan-tree-view.js';

export type ListTreeRowsProps = {
	/** The expanded object whose rows these are, and its key. */
	readonly object: PlanObject;
	readonly objectKey: string;
	/** Its fold choices: its rows for a newer state of it (row-feed.ts). */
	readonly folds: FoldOverrides;
	/** Every visible row of its tree (the same array while the object and its folds are the same). */
	readonly treeRows: readonly TreeRow[];
	/** The rows in the list's window: `count` of them from `from`. */
	readonly from: number;
	readonly count: number;
	/** Index in `rows` of the cursor, or -1. */
	readonly selected: number;
	/** Node id → timing, from the store. */
	readonly timings?: ReadonlyMap<string, NodeTiming>;
	readonly expectations?: ReadonlyMap<string, Expectation>;
	readonly width: number;
	/** A node's one-line cause (failed or stuck), drawn first in its row's trailing text. */
	readonly cause?: (object: PlanObject, node: PlanNode) => string | undefined;
};

/**
 * An object's plan tree inside the list: the tree screen's rows (status, timers, ETA, spinner on running nodes).
 * The columns line up over the whole of the object's visible tree, so scrolling does not shift them; per tick only
 * the timers on screen redraw.
 */
export const ListTreeRows = memo(function ListTreeRows(props: ListTreeRowsProps) {
	const {objectKey, from, count, selected, width, cause} = props;
	// A change to this object alone (row-feed.ts) renders these rows, not the list: its rows from the newer state.
	const entry = useRowEntry(objectKey, props.object);
	const object = entry?.object ?? props.object;
	const treeRows = entry ? listTreeRows(entry.object, props.folds) : props.treeRows;
	const timings = entry ? entry.timings : props.timings;
	const expectations = entry ? entry.expectations : props.expectations;
	const theme = useTheme();
	const basis = useMemo(() => treeColumnsBasis(treeRows, timings, theme), [treeRows, timings, theme]);
	const elapsedWidth = useTickValue(now => treeElapsedWidth(basis, now));
	const eta = expectations !== undefined && expectations.size > 0;
	const marker = displayWidth(theme.glyphs.ellipsis);
	const columns = useMemo(() => treeColumnsWith(basis, elapsedWidth, width, eta, marker), [basis, elapsedWidth, width, eta, marker]);
	return treeRows.slice(from, from + count).map((row, i) => (
		<NodeRow
			cause={cause?.(object, row.node)}
			key={row.node.id}
			row={row}
			selected={i === selected}
			columns={columns}
			startedAt={timings?.get(row.node.id)?.startedAt}
			endedAt={timings?.get(row.node.id)?.endedAt}
			retries={timings?.get(row.node.id)?.retries}
			expectations={expectations}
			width={width}
		/>
	));
});
