import {Box, Text} from 'ink';
import type {PlanObject} from '../../model/plan-tree.js';
import {statusLook} from '../../model/status.js';
import {objectTimingId, type NodeTiming} from '../../state/store.js';
import {cellWidth, fit, fitRight, singleLine} from '../cell-text.js';
import {elapsedOf} from '../elapsed.js';
import {formatDurationFitting} from '../../model/format-duration.js';
import {useScrollWindow} from '../hooks/use-scroll-window.js';
import {listKey, progressText} from '../list-rows.js';
import {roleOf, type Theme} from '../theme.js';
import {useTheme} from '../theme-context.js';
import {MoreLine} from './more-line.js';
import {StatusIcon} from './status-icon.js';
import {Line} from './line.js';

type Cells = {readonly kind: string; readonly namespace: string; readonly name: string; readonly active: string; readonly state: string; readonly progress: string; readonly elapsed: string};

const titles: Cells = {kind: 'KIND', namespace: 'NAMESPACE', name: 'NAME', active: 'ACTIVE', state: 'STATE', progress: 'PROGRESS', elapsed: 'ELAPSED'};
const caps: Record<keyof Cells, number> = {kind: 9, namespace: 20, name: 36, active: 16, state: 14, progress: 12, elapsed: 8};

type Measured = {readonly theme: Theme; readonly key: string; readonly cells: Omit<Cells, 'elapsed'>; readonly widths: Omit<Record<keyof Cells, number>, 'elapsed'>};

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
		kind: object.kind,
		namespace: singleLine(object.namespace, theme.glyphs.lineBreak),
		name: singleLine(object.name, theme.glyphs.lineBreak),
		active: singleLine(object.active ?? '', theme.glyphs.lineBreak),
		state: `${theme.icon(object.state)} ${statusLook(object.state).word}`,
		progress: progressText(object),
	};
	const widths = {
		kind: cellWidth(cells.kind),
		namespace: cellWidth(cells.namespace),
		name: cellWidth(cells.name),
		active: cellWidth(cells.active),
		state: cellWidth(cells.state),
		progress: cellWidth(cells.progress),
	};
	const entry = {theme, key: listKey(object), cells, widths};
	measured.set(object, entry);
	return entry;
}

function elapsedText(key: string, timings: ObjectListProps['timings'], now: number, width: number): string {
	const elapsed = elapsedOf(timings.get(key)?.get(objectTimingId), now);
	return elapsed === undefined ? '' : formatDurationFitting(elapsed, width);
}

/**
 * Column widths from the content of every object (not just the window, so scrolling does not shift columns),
 * capped; on a narrow terminal NAME, then NAMESPACE, then ACTIVE give way. ELAPSED is as wide as the longest
 * timer, and a longer duration never prints shorter, so only the longest one is formatted.
 */
function widthsOf(objects: readonly PlanObject[], theme: Theme, timings: ObjectListProps['timings'], now: number, width: number): Record<keyof Cells, number> {
	const widths = {} as Record<keyof Cells, number>;
	for (const column of Object.keys(titles) as Array<keyof Cells>) {
		widths[column] = cellWidth(titles[column]);
	}

	let longest: number | undefined;
	for (const object of objects) {
		const m = measure(object, theme);
		widths.kind = Math.max(widths.kind, m.widths.kind);
		widths.namespace = Math.max(widths.namespace, m.widths.namespace);
		widths.name = Math.max(widths.name, m.widths.name);
		widths.active = Math.max(widths.active, m.widths.active);
		widths.state = Math.max(widths.state, m.widths.state);
		widths.progress = Math.max(widths.progress, m.widths.progress);
		const elapsed = elapsedOf(timings.get(m.key)?.get(objectTimingId), now);
		if (elapsed !== undefined && (longest === undefined || elapsed > longest)) {
			longest = elapsed;
		}
	}

	if (longest !== undefined) {
		widths.elapsed = Math.max(widths.elapsed, cellWidth(formatDurationFitting(longest, caps.elapsed)));
	}

	for (const column of Object.keys(titles) as Array<keyof Cells>) {
		widths[column] = Math.min(caps[column], widths[column]);
	}

	const gaps = 2 + 2 * 6;
	let excess = gaps + Object.values(widths).reduce((a, b) => a + b, 0) - width;
	for (const column of ['name', 'namespace', 'active'] as const) {
		const give = Math.max(0, Math.min(excess, widths[column] - titles[column].length));
		widths[column] -= give;
		excess -= give;
	}

	return widths;
}

export type ObjectListProps = {
	readonly objects: readonly PlanObject[];
	readonly cursor: number;
	readonly timings: ReadonlyMap<string, ReadonlyMap<string, NodeTiming>>;
	/** The running plan's ETA from past runs (`~2m left`); an ETA column appears when any object has one. */
	readonly eta?: (object: PlanObject) => string | undefined;
	readonly now: number;
	/** Lines for the column titles and the rows. */
	readonly height: number;
	readonly width: number;
	/** What to say when there are no rows. */
	readonly empty: string;
};

/** KIND NAMESPACE NAME ACTIVE STATE PROGRESS ELAPSED, windowed to `height` lines around the cursor. */
export function ObjectList({objects, cursor, timings, eta, now, height, width, empty}: ObjectListProps) {
	const theme = useTheme();
	const window = useScrollWindow(objects.length, height - 1, cursor);
	if (height <= 0) {
		return null;
	}

	const w = widthsOf(objects, theme, timings, now, width);
	const shown = objects.slice(window.start, window.end);
	// Only the rows on screen: a list of thousands asks for a screenful of ETAs (each a cached lookup).
	const etas = eta ? shown.map(o => eta(o)) : [];
	const etaWidth = etas.some(e => e !== undefined) ? Math.max(3, ...etas.map(e => cellWidth(e ?? ''))) : 0;
	const line = (c: Omit<Cells, 'elapsed'>) =>
		`${fit(c.kind, w.kind, theme.glyphs.ellipsis)}  ${fit(c.namespace, w.namespace, theme.glyphs.ellipsis)}  ${fit(c.name, w.name, theme.glyphs.ellipsis)}  ${fit(c.active, w.active, theme.glyphs.ellipsis)}  `;
	return (
		<Box flexDirection="column" width={width}>
			<Line bold>
				{'  '}
				{line(titles)}
				{fit(titles.state, w.state, theme.glyphs.ellipsis)}  {fit(titles.progress, w.progress, theme.glyphs.ellipsis)}  {fitRight(titles.elapsed, w.elapsed)}
				{etaWidth > 0 ? `  ${'ETA'.padEnd(etaWidth)}` : undefined}
			</Line>
			{objects.length === 0 && height > 1 ? (
				<Line {...theme.style('muted')}>
					{'  '}
					{empty}
				</Line>
			) : undefined}
			{window.above > 0 && height >= 4 ? <MoreLine direction="above" count={window.above} /> : undefined}
			{shown.map((object, i) => {
				const index = window.start + i;
				const {cells: c, key} = measure(object, theme);
				const selected = index === cursor;
				const stateWord = statusLook(object.state).word;
				return (
					<Line key={key}>
						<Text bold={selected}>{selected ? `${theme.glyphs.cursor} ` : '  '}</Text>
						<Text inverse={selected}>{line(c)}</Text>
						<StatusIcon state={object.state} />{' '}
						<Text {...theme.style(roleOf(object.state))}>{fit(stateWord, Math.max(0, w.state - cellWidth(theme.icon(object.state)) - 1), theme.glyphs.ellipsis)}</Text>
						{'  '}
						{fit(c.progress, w.progress, theme.glyphs.ellipsis)}
						{'  '}
						{fitRight(elapsedText(key, timings, now, w.elapsed), w.elapsed)}
						{etaWidth > 0 && etas[i] ? <Text {...theme.style(etas[i].startsWith('overdue') ? 'warning' : 'muted')}>{`  ${etas[i]}`}</Text> : undefined}
					</Line>
				);
			})}
			{window.below > 0 && height >= 4 ? <MoreLine direction="below" count={window.below} /> : undefined}
		</Box>
	);
}
