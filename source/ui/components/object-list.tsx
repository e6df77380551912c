import {Box, Text} from 'ink';
import {memo, useCallback, useMemo, useRef} from 'react';
import type {PlanNode, PlanObject} from '../../model/plan-tree.js';
import {statusLook} from '../../model/status.js';
import {objectTimingId, type NodeTiming} from '../../state/store.js';
import {fit, fitRight, singleLine, truncate} from '../cell-text.js';
import {displayWidth} from '../../model/display-width.js';
import {elapsedOf} from '../elapsed.js';
import {formatDurationFitting} from '../../model/format-duration.js';
import {
	columnBasis,
	listColumnWidths,
	listColumns,
	type ColumnBasis,
	type ColumnItem,
	type ListColumn,
	type ListWidths,
	type TextWidths,
} from '../list-columns.js';
import {listKey, progressText} from '../list-rows.js';
import {useTickValue} from '../ticks.js';
import {roleOf, type Theme} from '../theme.js';
import {useTheme} from '../theme-context.js';
import type {Expectation} from '../../model/eta.js';
import type {ScrollWindow} from '../scroll-window.js';
import {rowsIn, type ListRow, type TreeBlock, type TreeList} from '../tree-list.js';
import {noFoldOverrides, type FoldOverrides} from '../tree-rows.js';
import {RowFeedContext, useRowEntry} from '../hooks/use-row-entry.js';
import type {RowFeed} from '../row-feed.js';
import {ListTreeRows} from './list-tree-rows.js';
import {MoreLine} from './more-line.js';
import {StatusIcon} from './status-icon.js';
import {Line} from './line.js';
import {TickText} from './tick-text.js';

type Cells = Readonly<Record<ListColumn, string>>;

const titles: Cells = {
	context: 'CONTEXT',
	kind: 'KIND',
	namespace: 'NAMESPACE',
	name: 'NAME',
	active: 'ACTIVE',
	state: 'STATE',
	progress: 'PROGRESS',
	elapsed: 'ELAPSED',
	eta: 'ETA',
	message: 'MESSAGE',
};
const titleWidths = Object.fromEntries(listColumns.map(column => [column, displayWidth(titles[column])])) as ListWidths;
/** Cells of the longest timer text. */
const elapsedCap = 8;

type Measured = {readonly theme: Theme; readonly key: string; readonly cells: Omit<Cells, 'elapsed' | 'eta'>; readonly widths: TextWidths};

/**
 * Cells and widths of an object's text, cached per adapted object: the store replaces an object only when it
 * changes, so a render with thousands of objects measures only the ones that changed.
 */
const measured = new WeakMap<PlanObject, Measured>();

function measure(object: PlanObject, theme: Theme): Measured {
	const cached = measured.get(object);
	if (cached?.theme === theme) {
		return cached;
	}

	const cells = {
		context: singleLine(object.context ?? '', theme.glyphs.lineBreak),
		kind: object.kind,
		namespace: singleLine(object.namespace, theme.glyphs.lineBreak),
		name: singleLine(object.name, theme.glyphs.lineBreak),
		active: singleLine(object.active ?? '', theme.glyphs.lineBreak),
		state: `${theme.icon(object.state)} ${statusLook(object.state).word}`,
		progress: progressText(object),
		message: singleLine(object.summary, theme.glyphs.lineBreak),
	};
	const widths = {
		context: displayWidth(cells.context),
		kind: displayWidth(cells.kind),
		namespace: displayWidth(cells.namespace),
		name: displayWidth(cells.name),
		active: displayWidth(cells.active),
		state: displayWidth(cells.state),
		progress: displayWidth(cells.progress),
		message: displayWidth(cells.message),
	};
	const entry = {theme, key: listKey(object), cells, widths};
	measured.set(object, entry);
	return entry;
}

/** The widths of an object's cells (cached per adapted object): what it adds to the column widths. */
export function cellWidths(object: PlanObject, theme: Theme): TextWidths {
	return measure(object, theme).widths;
}

/** Width of the ELAPSED column at `now`: a longer duration never prints shorter, so only the longest is formatted. */
function elapsedWidthAt(basis: ColumnBasis, now: number): number {
	const open = basis.openFrom === undefined ? undefined : Math.max(0, now - basis.openFrom);
	const longest = open === undefined ? basis.closed : basis.closed === undefined ? open : Math.max(open, basis.closed);
	return Math.max(displayWidth(titles.elapsed), longest === undefined ? 0 : displayWidth(formatDurationFitting(longest, elapsedCap)));
}

type Widths = ListWidths;

/**
 * Column widths from the basis (every object's widths) and the terminal's width (list-columns.ts: what gives way
 * on a narrow terminal, what a wide one shows more of). CONTEXT is there only when objects come from several
 * contexts, ACTIVE and PROGRESS only when an object has one, ETA only when a row has one.
 */
function widthsOf(basis: ColumnBasis, elapsed: number, eta: number, width: number): Widths {
	const natural = {} as Record<ListColumn, number>;
	for (const column of listColumns) {
		natural[column] = column === 'elapsed'
			? elapsed
			: column === 'eta' ? eta : Math.max(titleWidths[column], basis.widths[column as keyof TextWidths]);
	}

	// A column no object has anything in (CONTEXT of one context, PROGRESS of plans without any) is not shown: its
	// title alone would take the cells a name needs.
	for (const column of ['context', 'active', 'progress'] as const) {
		if (basis.widths[column] === 0) {
			natural[column] = 0;
		}
	}

	return listColumnWidths(natural, titleWidths, width);
}

/** `› ▾ `: the cursor, the object's fold marker. */
const prefixWidth = 4;

function sameWidths(a: Widths, b: Widths): boolean {
	return listColumns.every(column => a[column] === b[column]);
}

export type ObjectListProps = {
	/** The objects and the rows of their expanded trees. */
	readonly list: TreeList;
	/** Row under the cursor. */
	readonly cursor: number;
	/** The rows shown, around the cursor (useScrollWindow over `height - 1` lines: the column titles take one). */
	readonly window: ScrollWindow;
	readonly timings: ReadonlyMap<string, ReadonlyMap<string, NodeTiming>>;
	/** The running plan's ETA from past runs at `now` (`~2m left`); an ETA column appears when any row has one. */
	readonly eta?: (object: PlanObject, now: number) => string | undefined;
	/** Node id → what past runs say, for an expanded object's tree rows (`~2m left`). */
	readonly expectations?: (object: PlanObject) => ReadonlyMap<string, Expectation> | undefined;
	/** Lines for the column titles and the rows. */
	readonly height: number;
	readonly width: number;
	/** What to say when there are no rows. */
	readonly empty: string;
	/** Fold choices per object key inside its tree (the view's). */
	readonly folds?: ReadonlyMap<string, FoldOverrides>;
	/** Changes that show in one object's rows alone come to its rows through this (row-feed.ts). */
	readonly rowFeed?: RowFeed;
	/** A node row's one-line cause (a failed or stuck step or phase: `ImagePullBackOff · pod web-0`), if known. */
	readonly cause?: (object: PlanObject, node: PlanNode) => string | undefined;
};

type Basis = {
	readonly objects: readonly PlanObject[];
	readonly timings: ObjectListProps['timings'];
	readonly theme: Theme;
	readonly basis: ColumnBasis;
};

/**
 * [CONTEXT] KIND NAMESPACE NAME ACTIVE STATE PROGRESS ELAPSED, one row per object, each expanded object followed by
 * the rows of its plan tree; windowed to `height` lines around the cursor. Only the rows in the window are built and drawn.
 */
export function ObjectList(props: ObjectListProps) {
	const {list, cursor, window, timings, eta, expectations, height, width, empty, folds, rowFeed, cause} = props;
	const theme = useTheme();
	const {objects} = list;
	// The store keeps one timings map and replaces an object whenever its timings change: the previous basis
	// stays valid for the next array as long as the map and theme are the same.
	const last = useRef<Basis | undefined>(undefined);
	const previous = last.current?.timings === timings && last.current.theme === theme ? last.current : undefined;
	const basis = previous?.objects === objects ? previous.basis : columnBasis(objects, o => columnItem(o, theme, timings), previous);
	last.current = {objects, timings, theme, basis};
	const elapsedWidth = useTickValue(now => elapsedWidthAt(basis, now));
	// Rebuilt when the list or the window moves; a tick that widens a column reads no object.
	const shown = useMemo(() => rowsIn(list, window.start, window.end), [list, window.start, window.end]);
	// Only the object rows on screen: a list of thousands asks for a screenful of ETAs (each a cached lookup). One
	// text per tick, so the list re-renders only when an ETA on screen changes.
	const etaLine = useTickValue(now => (eta ? shown.map(r => (r.type === 'object' ? (eta(r.object, now) ?? '') : '')).join('\n') : ''));
	const etas = etaLine === '' ? [] : etaLine.split('\n');
	const etaWidth = etas.some(e => e !== '') ? Math.max(3, ...etas.map(e => displayWidth(e))) : 0;
	// Rows are memoized on their widths: keep the same object while the numbers are the same.
	const widths = useRef<Widths | undefined>(undefined);
	const computed = widthsOf(basis, elapsedWidth, etaWidth, width);
	const w = widths.current && sameWidths(widths.current, computed) ? widths.current : computed;
	widths.current = w;
	// The same groups while the rows are the same: an open tree's rows are then the same props (memoized).
	const grouped = useMemo(() => groups(shown), [shown]);
	if (height <= 0) {
		return null;
	}

	return (
		<RowFeedContext.Provider value={rowFeed}>
			<Box flexDirection="column" width={width}>
				<ColumnTitles widths={w} />
				{objects.length === 0 && height > 1 ? (
					<Line {...theme.style('muted')}>
						{'  '}
						{empty}
					</Line>
				) : undefined}
				{window.above > 0 && height >= 4 ? <MoreLine direction="above" count={window.above} /> : undefined}
				{grouped.map(group => {
					if (group.type === 'node') {
						const {block} = group;
						const at = window.start + group.from;
						// Props that stay the same while the object does (not the window's row objects): an update to
						// another object renders none of this tree's rows.
						const object = group.rows[0]!.object;
						return (
							<ListTreeRows
								key={`${block.key}\ntree`}
								object={object}
								objectKey={block.key}
								folds={folds?.get(block.key) ?? noFoldOverrides}
								treeRows={block.rows}
								from={at - block.index - block.before - 1}
								count={group.rows.length}
								selected={cursor >= at && cursor < at + group.rows.length ? cursor - at : -1}
								timings={timings.get(block.key)}
								expectations={expectations?.(object)}
								width={width}
								{...(cause ? {cause} : {})}
							/>
						);
					}

					const {object, from} = group;
					const timing = timings.get(group.key)?.get(objectTimingId);
					return (
						<ObjectRow
							key={group.key}
							objectKey={group.key}
							object={object}
							selected={window.start + from === cursor}
							fold={group.expandable ? (group.expanded ? 'expanded' : 'collapsed') : 'none'}
							widths={w}
							startedAt={timing?.startedAt}
							endedAt={timing?.endedAt}
							atLeast={timing?.atLeast === true}
							eta={w.eta > 0 && etas[from] ? etas[from] : undefined}
							width={width}
						/>
					);
				})}
				{window.below > 0 && height >= 4 ? <MoreLine direction="below" count={window.below} /> : undefined}
			</Box>
		</RowFeedContext.Provider>
	);
}

/** The column titles: the same widths (kept as one object while they are), no render. */
const ColumnTitles = memo(function ColumnTitles({widths: w}: {readonly widths: Widths}) {
	const theme = useTheme();
	return (
		<Line bold>
			{' '.repeat(prefixWidth)}
			{leftCells(titles, w, theme)}
			{fit(titles.state, w.state, theme.glyphs.ellipsis)}{progressCell(titles.progress, w, theme)}
			{'  '}{fitRight(titles.elapsed, w.elapsed)}
			{w.eta > 0 ? `  ${titles.eta.padEnd(w.eta)}` : undefined}
			{w.message > 0 ? `  ${titles.message}` : undefined}
		</Line>
	);
});

type Group = (Extract<ListRow, {type: 'object'}> & {readonly from: number})
	| {readonly type: 'node'; readonly block: TreeBlock; readonly rows: Array<Extract<ListRow, {type: 'node'}>>; readonly from: number};

/** The window's rows: each object's row, and the tree rows of one object together (they share column widths). */
function groups(rows: readonly ListRow[]): Group[] {
	const out: Group[] = [];
	rows.forEach((row, from) => {
		const last = out.at(-1);
		if (row.type === 'object') {
			out.push({...row, from});
		} else if (last?.type === 'node' && last.block === row.block) {
			last.rows.push(row);
		} else {
			out.push({type: 'node', block: row.block, rows: [row], from});
		}
	});
	return out;
}

function columnItem(object: PlanObject, theme: Theme, timings: ObjectListProps['timings']): ColumnItem {
	const m = measure(object, theme);
	return {widths: m.widths, timing: timings.get(m.key)?.get(objectTimingId)};
}

/** The cells left of STATE, each followed by its gap; a column of width 0 is not shown. */
function leftCells(c: Pick<Cells, 'context' | 'kind' | 'namespace' | 'name' | 'active'>, w: Widths, theme: Theme): string {
	const e = theme.glyphs.ellipsis;
	return (['context', 'kind', 'namespace', 'name', 'active'] as const)
		.map(column => (w[column] > 0 ? `${fit(c[column], w[column], e)}  ` : ''))
		.join('');
}

/** `  PROGRESS` (its gap first), or nothing when the column gave way. */
function progressCell(text: string, w: Widths, theme: Theme): string {
	return w.progress > 0 ? `  ${fit(text, w.progress, theme.glyphs.ellipsis)}` : '';
}

type ObjectRowProps = {
	readonly object: PlanObject;
	readonly objectKey: string;
	readonly selected: boolean;
	/** The object's tree in the list: shown, folded away, or none to show. */
	readonly fold: 'expanded' | 'collapsed' | 'none';
	readonly widths: Widths;
	readonly startedAt?: number;
	readonly endedAt?: number;
	/** The start was not seen: the duration is a lower bound. */
	readonly atLeast?: boolean;
	/** `~2m left` / `overdue 1m`, when the ETA column is shown and this row has one. */
	readonly eta?: string;
	readonly width: number;
};

/**
 * One object's line. Memoized: a frame re-renders only the rows whose object, selection, widths or timer
 * changed; the running timer redraws itself on the clock's tick.
 */
const ObjectRow = memo(function ObjectRow(props: ObjectRowProps) {
	const {objectKey, selected, fold, widths: w, startedAt, endedAt, atLeast, eta, width} = props;
	// A change to this object alone (row-feed.ts) renders this row, not the list.
	const object = useRowEntry(objectKey, props.object, true)?.object ?? props.object;
	const theme = useTheme();
	const {cells: c} = measure(object, theme);
	const stateWord = statusLook(object.state).word;
	// The same function while the timer is the same: the timer's texts are memo components.
	const elapsedText = useCallback((now: number) => {
		const elapsed = elapsedOf(startedAt === undefined ? undefined : {startedAt, endedAt}, now);
		const mark = atLeast && elapsed !== undefined ? theme.glyphs.atLeast : '';
		return fitRight(elapsed === undefined ? '' : mark + formatDurationFitting(elapsed, w.elapsed - mark.length), w.elapsed);
	}, [startedAt, endedAt, atLeast, w.elapsed, theme]);
	// The spinner and the timer are drawn over blank cells the row keeps for them, so a tick re-measures and
	// redraws those few cells, not the whole row's text; a row too narrow for them draws them inline.
	const cursor = selected ? `${theme.glyphs.cursor} ` : '  ';
	const foldGlyph = fold === 'none' ? ' ' : fold === 'expanded' ? theme.glyphs.expanded : theme.glyphs.collapsed;
	// Kept while those cells and the widths are the same (an update changes PROGRESS or MESSAGE, not these).
	const {context, kind, namespace, name, active} = c;
	const left = useMemo(
		() => leftCells({context, kind, namespace, name, active}, w, theme),
		[context, kind, namespace, name, active, w, theme],
	);
	const spins = object.state === 'running' && theme.spinner;
	const icon = spins ? ' ' : theme.icon(object.state);
	const state = fit(stateWord, Math.max(0, w.state - displayWidth(theme.icon(object.state)) - 1), theme.glyphs.ellipsis);
	const progress = progressCell(c.progress, w, theme);
	const iconAt = displayWidth(cursor) + displayWidth(foldGlyph) + 1 + displayWidth(left);
	const elapsedAt = iconAt + displayWidth(icon) + 1 + displayWidth(state) + displayWidth(progress) + 2;
	// The ETA is padded only when the MESSAGE column follows it.
	const etaCell = w.eta > 0 && (eta || w.message > 0) ? `  ${w.message > 0 ? (eta ?? '').padEnd(w.eta) : (eta ?? '')}` : '';
	const message = w.message > 0 ? `  ${truncate(c.message, w.message, theme.glyphs.ellipsis)}` : '';
	const overlaid = elapsedAt + w.elapsed <= width;
	// Each styled run is a memo component: a change to one cell (PROGRESS) updates the line's text and that run,
	// not every run of the row (each re-rendered <Text> is a host update and a text measured again by Ink).
	return (
		<Box width={width}>
			<Line>
				<SameText bold={selected}>{cursor}</SameText>
				{foldGlyph}{' '}
				<SameText inverse={selected}>{left}</SameText>
				{overlaid && spins ? icon : <SameStatusIcon state={object.state} />}{' '}
				<SameText {...theme.style(roleOf(object.state))}>{state}</SameText>
				{progress}
				{'  '}
				{overlaid ? ' '.repeat(w.elapsed) : <TickText text={elapsedText} />}
				{etaCell ? <SameText {...theme.style(eta?.startsWith('overdue') ? 'warning' : 'muted')}>{etaCell}</SameText> : undefined}
				{message ? <SameText {...theme.style('muted')}>{message}</SameText> : undefined}
			</Line>
			{overlaid && spins ? <OverlaidIcon left={iconAt} state={object.state} /> : undefined}
			{overlaid ? <OverlaidTimer left={elapsedAt} text={elapsedText} /> : undefined}
		</Box>
	);
});

/** A styled run of a row: renders only when its text or style does. */
const SameText = memo(Text);
const SameStatusIcon = memo(StatusIcon);

/** The spinner drawn over the blank cell the row keeps for it. */
const OverlaidIcon = memo(function OverlaidIcon({left, state}: {readonly left: number; readonly state: PlanObject['state']}) {
	return (
		<Box position="absolute" left={left}>
			<StatusIcon state={state} />
		</Box>
	);
});

/** The timer drawn over the blank cells the row keeps for it: a tick redraws those cells only. */
const OverlaidTimer = memo(function OverlaidTimer({left, text}: {readonly left: number; readonly text: (now: number) => string}) {
	return (
		<Box position="absolute" left={left}>
			<Text>
				<TickText text={text} />
			</Text>
		</Box>
	);
});

