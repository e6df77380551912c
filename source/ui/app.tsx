import {Box, useWindowSize} from 'ink';
import {useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore} from 'react';
import type {Diagnosis} from '../model/diagnosis.js';
import type {Clock} from '../core/clock.js';
import {formatEta, nodeEta, planNode} from '../model/eta.js';
import {noObjectsText, objectKey, type PlanNode, type PlanObject} from '../model/plan-tree.js';
import type {ReplayControls} from '../recording/replay-clock.js';
import type {WaitSession} from '../state/wait-session.js';
import {DetailLines, detailLinesWanted} from './components/detail-lines.js';
import {EventsPane, eventsLinesWanted} from './components/events-pane.js';
import {FooterKeys} from './components/footer-keys.js';
import {countsKey, HeaderBar} from './components/header-bar.js';
import {HelpOverlay, helpScrollMax} from './components/help-overlay.js';
import {ListHeader, listHeaderLines} from './components/list-header.js';
import {ObjectLines} from './components/object-lines.js';
import {cellWidths, ObjectList} from './components/object-list.js';
import {PlanTreeView} from './components/plan-tree-view.js';
import {WhyPane} from './components/why-pane.js';
import {whyLinesWanted} from './why-lines.js';
import {shownWatchWants} from '../state/watch-wants.js';
import {diagnoseIn} from '../state/workloads.js';
import {TimeoutBanner, hasBanner} from './components/timeout-banner.js';
import {useCommands} from './hooks/use-commands.js';
import {useStore, type SnapshotSource} from './hooks/use-store.js';
import type {DeletedObject, StoreSnapshot} from '../state/store.js';
import {useViewState} from './hooks/use-view-state.js';
import {useWaitLayout} from './hooks/use-wait.js';
import {useTreeList} from './hooks/use-tree-list.js';
import {useScrollWindow} from './hooks/use-scroll-window.js';
import {listOnScreen, nothingOnScreen, treeOnScreen, type OnScreen} from './on-screen.js';
import {changesShow} from './screen-interest.js';
import {RowFeed, rowLocalChanges, type RowLocalContext} from './row-feed.js';
import type {ScrollWindow} from './scroll-window.js';
import type {ActionCommand, ActionOutcome, Expectations, TuiActions} from './actions.js';
import type {Command} from './keymap.js';
import {computeLayout} from './layout.js';
import {countsByContext, countsText, listKey, listObjects} from './list-rows.js';
import {rowAt, type TreeList} from './tree-list.js';
import {createTheme} from './theme.js';
import {ThemeContext} from './theme-context.js';
import {frozenTicks, TicksContext, tickSource, useTickValueOf} from './ticks.js';
import type {AsOf} from '../model/as-of.js';
import {asOfText} from '../model/clock-time.js';
import {runSessionCommand} from './session-commands.js';
import {initialViewState, selectTree, viewMode, type ViewContext, type ViewState} from './view-state.js';

export type AppProps = {
	/** Snapshots of the watched objects (a `Store`). */
	readonly store: SnapshotSource;
	/** The app's only time source; its 1 Hz tick moves every timer on screen. */
	readonly clock: Clock;
	/** Deadline, grace prompt and result of `--wait`; `+`, `-` and quitting go to it. */
	readonly wait: WaitSession;
	readonly header: {readonly context: string; readonly scope: string};
	/** IANA zone for every clock time (`--utc`: UTC); default: the machine's. */
	readonly timeZone?: string;
	/** Object keys (`Kind/namespace/name`) the user asked for. Exactly one opens its tree; otherwise the list. */
	readonly targets?: readonly string[];
	/** ASCII icons, fold markers and no spinner. */
	readonly ascii: boolean;
	/** False: no colour at all. */
	readonly color: boolean;
	/** Called once when the user quits, after `wait.quit()`. */
	onQuit(): void;
	/** `y`, `Y`, `s`, `n`: copy, save, notifications (done outside the UI). */
	readonly actions?: TuiActions;
	/** Past runs per node (the ETA history); none: no ETAs. */
	readonly expectations?: Expectations;
	/** `planwatch replay`: `[`, `]`, space drive it; the header says `REPLAY` and the recorded time. */
	readonly replay?: ReplayControls;
	/** A static snapshot (`-f`): every timer shows this moment, nothing spins, the header says `as of …`. */
	readonly asOf?: AsOf;
};

const noReplay = {subscribe: () => () => {}, getState: () => undefined};

const actionCommands: ReadonlySet<Command> = new Set<ActionCommand>(['copy.tree', 'copy.json', 'snapshot.save', 'notify.toggle']);
/** How long an action's one-line answer stays in the footer (or until the next key). */
const flashMs = 6000;

/** `~2m left` for the plan an object is running, from its past runs. */
function planEtaText(
	object: PlanObject | undefined,
	expectations: Expectations | undefined,
	timings: ReturnType<SnapshotSource['getSnapshot']>['timings'],
	now: number,
): string | undefined {
	if (!object || !expectations) {
		return undefined;
	}

	const node = planNode(object);
	if (!node) {
		return undefined;
	}

	const eta = nodeEta(node, expectations(object), timings.get(objectKey(object))?.get(node.id)?.startedAt, now);
	return eta ? formatEta(eta) : undefined;
}

/**
 * The object the screen is about — the open tree's, else the one under the list cursor — and its tree rows. The
 * remembered indexes spare a walk over thousands of keys per frame.
 */
function useOpenObject(
	view: ViewState,
	objects: readonly PlanObject[],
	list: TreeList,
	listCursor: number,
	deleted: ReadonlyMap<string, DeletedObject> | undefined,
) {
	const isTree = view.screen === 'tree';
	const openHint = useRef(0);
	const found = isTree
		? (view.openKey === undefined ? undefined : objects[indexOfKey(objects, view.openKey, openHint)])
		: rowAt(list, listCursor)?.object;
	// The open object deleted: its last state stays on screen, saying it is gone.
	const gone = isTree && !found && view.openKey !== undefined ? deleted?.get(view.openKey) : undefined;
	const open = found ?? gone?.object;
	const openKey = isTree ? view.openKey : open && listKey(open);
	const folds = isTree && openKey !== undefined ? view.folds.get(openKey) : undefined;
	const treeCursor = isTree && openKey !== undefined ? view.treeCursors.get(openKey) : undefined;
	// Per tick (`now`) nothing here changes: the tree is walked only when the object, its folds or the cursor do.
	const tree = useMemo(() => (isTree && open ? selectTree(open, folds, treeCursor) : undefined), [isTree, open, folds, treeCursor]);
	return {isTree, open, gone, openKey, tree, selected: tree?.rows[tree.cursor]?.node};
}

type Flash = (ActionOutcome & {readonly at: number}) | undefined;

type CommandTargets = {
	readonly actions: TuiActions | undefined;
	/** The selected node's next command (`y` copies it instead of the tree). */
	readonly next: string | undefined;
	readonly openKey: string | undefined;
	readonly flash: Flash;
	readonly setFlash: (flash: Flash) => void;
	readonly clock: Clock;
	readonly session: WaitSession;
	readonly replay: ReplayControls | undefined;
	readonly dispatch: ReturnType<typeof useViewState>[1];
	readonly onQuit: () => void;
	/** What the view needs to act on a key (computed only when a key arrives). */
	readonly viewContext: () => ViewContext;
};

/** Where each key goes: an action (copy, save, notify), the wait or the replay, else the view state. */
function useAppCommands(mode: ReturnType<typeof viewMode>, keyContext: {readonly replay: boolean}, t: CommandTargets): void {
	useCommands(mode, {
		onCommand(command: Command) {
			if (actionCommands.has(command)) {
				const next = command === 'copy.tree' ? t.next : undefined;
				const outcome = t.actions
					? t.actions.run(command as ActionCommand, t.openKey, next)
					: {ok: false, message: 'not available here'};
				t.setFlash({...outcome, at: t.clock.now()});
				return;
			}

			if (t.flash) {
				t.setFlash(undefined);
			}

			if (runSessionCommand(command, t.session, t.replay)) {
				return undefined;
			}

			const {previous, next} = t.dispatch({type: 'command', command, context: t.viewContext()});
			if (next.quit && !previous.quit) {
				t.session.quit();
				t.onQuit();
			}

			return viewMode(next);
		},
		onText(text) {
			t.dispatch({type: 'filter.type', text});
		},
	}, keyContext);
}

/** What the empty list says: still loading, nothing in scope, or nothing left by the filter. */
function emptyListText(snapshot: Pick<ReturnType<SnapshotSource['getSnapshot']>, 'synced' | 'objects'>, ellipsis: string): string {
	if (!snapshot.synced) {
		return `loading${ellipsis}`;
	}

	return snapshot.objects.length === 0 ? noObjectsText : 'nothing matches the filter';
}

type TreeScreenProps = {
	readonly object: PlanObject | undefined;
	/** The object was deleted at this clock time: `object` is its last state. */
	readonly deletedAt: number | undefined;
	readonly objectKey: string;
	readonly synced: boolean;
	readonly eta: string | undefined;
	readonly tree: ReturnType<typeof selectTree> | undefined;
	readonly treeWindow: ScrollWindow;
	readonly selected: PlanNode | undefined;
	readonly timings: ReturnType<SnapshotSource['getSnapshot']>['timings'];
	readonly expectations: ReturnType<Expectations> | undefined;
	readonly layout: Pick<ReturnType<typeof computeLayout>, 'top' | 'body' | 'detail'>;
	/** Why the selected node is stuck or failed, and how many of the detail lines that takes. */
	readonly why: {readonly diagnosis: Diagnosis | undefined; readonly height: number};
	readonly width: number;
};

/** One object full screen: its summary lines, its plan tree and the selected node's details. */
function TreeScreen(props: TreeScreenProps) {
	const {object, deletedAt, objectKey, synced, eta, tree, treeWindow, selected, timings, expectations, layout, why, width} = props;
	return (
		<>
			<ObjectLines
				object={object}
				deletedAt={deletedAt}
				objectKey={objectKey}
				synced={synced}
				eta={deletedAt === undefined ? eta : undefined}
				height={layout.top}
				width={width}
			/>
			{tree ? (
				<PlanTreeView
					rows={tree.rows}
					cursor={tree.cursor}
					window={treeWindow}
					timings={timings.get(objectKey)}
					expectations={expectations}
					height={layout.body}
					width={width}
				/>
			) : undefined}
			<DetailLines node={selected} height={layout.detail - why.height} width={width} />
			<WhyPane diagnosis={why.diagnosis} height={why.height} width={width} />
		</>
	);
}

/** The interactive dashboard: header, tree or list, events, timeout banner, footer. Data in, keys out; no I/O. */
export function App(props: AppProps) {
	const {
		store,
		clock,
		wait: session,
		header,
		targets,
		ascii,
		color,
		timeZone,
		onQuit,
		actions,
		expectations,
		replay,
		asOf,
	} = props;
	const [flash, setFlash] = useState<Flash>(undefined);
	// What this frame shows of the store (on-screen.ts): a change to anything else (an object off screen, a node
	// inside a collapsed subtree) costs no render.
	const onScreen = useRef<OnScreen>(nothingOnScreen);
	// A change that shows only in its own object's rows goes to those rows (row-feed.ts): no App render.
	const rowFeed = useMemo(() => new RowFeed(), []);
	const rowLocal = useRef<RowLocalContext | undefined>(undefined);
	const snapshot = useStore(store, changes => {
		if (!changesShow(onScreen.current, changes)) {
			return false;
		}

		const local = rowLocal.current && rowLocalChanges(rowLocal.current, rowFeed, changes);
		if (!local) {
			return true;
		}

		if (local.length === 0) {
			return false;
		}

		const {timings} = store.getSnapshot();
		for (const {key, object} of local) {
			rowFeed.publish(key, {object, timings: timings.get(key), expectations: expectations?.(object)});
		}

		return 'drawn';
	});
	// The App does not re-render on the clock's tick: the texts that show the time follow it on their own (and a
	// replay's seeks move them too).
	const ticks = useMemo(() => tickSource(clock, replay?.subscribe), [clock, replay]);
	// What the views read of the time: a snapshot's own moment, frozen (the footer's answers still fade on the clock).
	const viewTicks = useMemo(() => (asOf ? frozenTicks(asOf.at) : ticks), [asOf, ticks]);
	const replaying = useSyncExternalStore(replay?.subscribe ?? noReplay.subscribe, replay?.getState ?? noReplay.getState);
	const wait = useWaitLayout(session);
	const {columns, rows} = useWindowSize();
	const theme = useMemo(() => createTheme({color, ascii, timeZone, still: asOf !== undefined}), [color, ascii, timeZone, asOf]);
	const [view, dispatch] = useViewState(() => initialViewState(targets));
	const mode = viewMode(view);
	const keyContext = useMemo(() => ({replay: replay !== undefined}), [replay]);

	// Kept incrementally from the store array of the last time and the changes since (list-rows.ts byAttention); a
	// snapshot with the same array is a cache hit.
	const lastListed = useRef<StoreSnapshot | undefined>(undefined);
	const listed = useMemo(() => {
		const last = lastListed.current;
		lastListed.current = snapshot;
		const sameLog = last?.changes !== undefined && last.changes === snapshot.changes;
		const from = sameLog ? {objects: last.objects, changes: snapshot.changes.between(last.version, snapshot.version)} : undefined;
		return listObjects(snapshot.objects, {text: view.filter, failingOnly: view.failingOnly, targets}, from);
	}, [snapshot, view.filter, view.failingOnly, targets]);
	// The header reads the counts and the last event's time on its tick, from the latest snapshot: an event alone
	// (most are off screen) renders nothing. Counted once per store array.
	const counts = useCallback(() => countsText(store.getSnapshot().objects, ` ${theme.glyphs.separator} `), [store, theme]);
	const contextCounts = useCallback(() => countsByContext(store.getSnapshot().objects), [store]);
	const lastEventAt = useCallback(() => store.getSnapshot().lastEventAt, [store]);
	// The same counts of the snapshot drawn: a new object on screen brings them in its frame, not a tick later.
	const countsDrawn = countsKey(countsText(snapshot.objects, ` ${theme.glyphs.separator} `), countsByContext(snapshot.objects));
	const bannerInput = {wait, fatal: snapshot.fatal};
	const banner = hasBanner(bannerInput, theme);
	// The list's first screen (the events pane aside): running objects start expanded while their trees fit in it.
	const listScreen = view.screen !== 'tree';
	const budget = listScreen ? computeLayout({rows, top: listHeaderLines(view), banner, events: 0, detail: 0}).body : 0;
	const {list, cursor: listCursor} = useTreeList(listed, view, budget, listScreen);
	const {isTree, open, gone, openKey, tree, selected} = useOpenObject(view, snapshot.objects, list, listCursor, snapshot.deleted);
	const events = (openKey === undefined ? undefined : snapshot.events.get(openKey)) ?? [];
	const explain = useExplainer(snapshot);
	// Why the selected node is stuck or failed.
	const diagnosis = useMemo(() => (isTree && open && selected ? explain(open, selected) : undefined), [isTree, open, selected, explain]);
	const whyWanted = isTree && !view.help ? whyLinesWanted(diagnosis, columns) : 0;

	const layout = computeLayout({
		rows,
		top: view.help ? 0 : isTree ? 2 : listHeaderLines(view),
		banner,
		events: view.events && !view.help ? eventsLinesWanted(events) : 0,
		detail: isTree && !view.help ? detailLinesWanted(selected, columns) + whyWanted : 0,
		// The tree/list rows (plus a column title line for the list): room they leave goes to the events pane.
		bodyWanted: view.help ? undefined : isTree ? (tree?.rows.length ?? 1) : list.total + 1,
	});

	// The windows of the list and the tree: they remember their offsets, so the view moves only when the cursor leaves them.
	const listShown = !view.help && !isTree;
	const listHeight = layout.body + Math.min(1, layout.top);
	const listWindow = useScrollWindow(listShown ? list.total : 0, listHeight - 1, listCursor);
	const treeShown = !view.help && isTree && tree !== undefined;
	const treeWindow = useScrollWindow(treeShown ? tree.rows.length : 0, layout.body, tree?.cursor ?? 0);
	const treeCursor = isTree && view.openKey !== undefined ? view.treeCursors.get(view.openKey) : undefined;
	const shown = useMemo(
		() => {
			if (listShown) {
				return listOnScreen(list, listWindow, view.folds, object => cellWidths(object, theme));
			}

			return isTree && !view.help ? treeOnScreen(view.openKey, open, tree, treeWindow, treeCursor) : nothingOnScreen;
		},
		[listShown, isTree, view.help, list, listWindow, view.folds, theme, view.openKey, open, tree, treeWindow, treeCursor],
	);
	onScreen.current = shown;

	useWatchInterest(snapshot, shown, isTree && !view.help ? open : undefined, selected, explain);
	const listCause = useMemo(() => (listShown ? causeOf(explain) : undefined), [listShown, explain]);
	// The next command is what `y` copies while a node that has one is selected.
	const next = isTree ? diagnosis?.next : undefined;
	useAppCommands(mode, keyContext, {
		actions, next, openKey, flash, setFlash, clock, session, replay, dispatch, onQuit,
		viewContext: () => ({
			object: isTree ? open : undefined,
			list,
			page: layout.body,
			helpScrollMax: helpScrollMax(layout.top + layout.body, columns, theme.ascii, keyContext),
		}),
	});

	// A cached lookup per adapted object (source/model/run-history.ts): nothing is computed per frame. The texts
	// that follow the clock are selected per tick: the App re-renders only when one of them changes.
	const treeExpectations = open && expectations ? expectations(open) : undefined;
	const listEta = useMemo(
		() => (expectations ? (object: PlanObject, now: number) => planEtaText(object, expectations, snapshot.timings, now) : undefined),
		[expectations, snapshot.timings],
	);
	rowLocal.current = {
		enabled: listShown && !view.failingOnly,
		screen: shown,
		folds: view.folds,
		widths: object => cellWidths(object, theme),
		eta: listEta && (object => listEta(object, clock.now())),
		explain,
	};
	const openEta = useTickValueOf(viewTicks, now => (isTree ? planEtaText(open, expectations, snapshot.timings, now) : undefined));
	const flashOn = useTickValueOf(ticks, now => flash !== undefined && now - flash.at < flashMs);
	const shownFlash = flashOn ? flash : undefined;
	// The same object while its parts are the same: the footer (a memo) renders only when a hint changes.
	const canGoBack = isTree && view.hasList;
	const canExtend = wait.deadlineAt !== undefined && wait.phase !== 'done';
	const footerContext = useMemo(() => ({canGoBack, canExtend, replay: replay !== undefined}), [canGoBack, canExtend, replay]);
	const body = view.help ? (
		<HelpOverlay height={layout.top + layout.body} width={columns} scroll={view.helpScroll} context={keyContext} />
	) : isTree ? (
		<TreeScreen
			object={open}
			deletedAt={gone?.at}
			objectKey={view.openKey ?? ''}
			synced={snapshot.synced}
			eta={openEta}
			tree={tree}
			treeWindow={treeWindow}
			selected={selected}
			timings={snapshot.timings}
			expectations={treeExpectations}
			layout={layout}
			why={{diagnosis, height: Math.min(whyWanted, layout.detail)}}
			width={columns}
		/>
	) : (
		<>
			<ListHeader view={view} shown={listed.length} total={snapshot.objects.length} height={layout.top - 1} width={columns} />
			<ObjectList
				list={list}
				cursor={listCursor}
				window={listWindow}
				timings={snapshot.timings}
				eta={listEta}
				expectations={expectations}
				height={listHeight}
				width={columns}
				empty={emptyListText(snapshot, theme.glyphs.ellipsis)}
				folds={view.folds}
				rowFeed={rowFeed}
				{...(listCause ? {cause: listCause} : {})}
			/>
		</>
	);

	return (
		<ThemeContext.Provider value={theme}>
			<TicksContext.Provider value={viewTicks}>
				<Box flexDirection="column" width={columns}>
					{layout.header > 0 ? (
						<HeaderBar
							context={header.context}
							scope={header.scope}
							connection={snapshot.connection}
							lastEventAt={lastEventAt}
							missing={snapshot.missing}
							limited={snapshot.limited}
							contexts={snapshot.contexts}
							synced={snapshot.synced}
							counts={counts}
							contextCounts={contextCounts}
							countsDrawn={countsDrawn}
							wait={wait}
							width={columns}
							replay={replaying}
							{...(asOf ? {asOf: asOfText(asOf, timeZone)} : {})}
						/>
					) : undefined}
					{body}
					{layout.events > 0 ? (
						<EventsPane title={openKey?.split('/').slice(1).join('/')} events={events} height={layout.events} width={columns} />
					) : undefined}
					{layout.banner > 0 ? (
						<TimeoutBanner
							fatal={snapshot.fatal}
							session={session}
							echo={isTree && !view.help && open && !gone ? open.summary : undefined}
							width={columns}
						/>
					) : undefined}
					{layout.footer > 0 ? (
						<FooterKeys
							mode={mode}
							context={footerContext}
							filter={view.filter}
							message={shownFlash}
							width={columns}
						/>
					) : undefined}
				</Box>
			</TicksContext.Provider>
		</ThemeContext.Provider>
	);
}

/**
 * Index of the object with `key` in a sorted list, or -1. Per frame this is the same object as last frame (the
 * cursor's, the open one's), so the remembered index is tried first: no walk over thousands of keys per frame.
 */
function indexOfKey(objects: readonly PlanObject[], key: string, hint: {current: number}): number {
	const at = hint.current;
	if (objects[at] !== undefined && listKey(objects[at]) === key) {
		return at;
	}

	const index = objects.findIndex(o => listKey(o) === key);
	if (index !== -1) {
		hint.current = index;
	}

	return index;
}

/** Why any node of any object is stuck or failed (the list's rows, the watch wants); new when what was watched changed. */
function useExplainer(snapshot: StoreSnapshot): (object: PlanObject, node: PlanNode) => Diagnosis | undefined {
	const {workloads, timings} = snapshot;
	const version = workloads?.version;
	return useMemo(
		() => (object: PlanObject, node: PlanNode) => (workloads ? diagnoseIn({workloads, timings}, object, node) : undefined),
		// The workloads change in place; their version says when.
		// eslint-disable-next-line react-hooks/exhaustive-deps
		[workloads, timings, version],
	);
}

/** A list row's one-line cause: only under a failed node or one known stuck (it has a next command), as plain says. */
function causeOf(explain: (object: PlanObject, node: PlanNode) => Diagnosis | undefined) {
	return (object: PlanObject, node: PlanNode): string | undefined => {
		const d = explain(object, node);
		return d && (node.state === 'failed' || d.next !== undefined) ? d.brief : undefined;
	};
}

/**
 * Tell the store's workloads which nodes are on screen (the list's or the tree's rows in their window, and the tree's
 * selected node): only their pods and logs are watched. The help overlay shows none.
 */
function useWatchInterest(
	snapshot: StoreSnapshot,
	shown: OnScreen,
	open: PlanObject | undefined,
	selected: PlanNode | undefined,
	explain: (object: PlanObject, node: PlanNode) => Diagnosis | undefined,
): void {
	const {workloads} = snapshot;
	const wants = useMemo(() => {
		const withSelected = open && selected && !shown.rows.some(r => r.node === selected)
			? [...shown.rows, {object: open, node: selected}]
			: shown.rows;
		return shownWatchWants(withSelected, explain);
	}, [shown, open, selected, explain]);
	useEffect(() => {
		workloads?.setInterest(wants.interest);
		workloads?.setWantedLogs(wants.logs);
	}, [workloads, wants]);
	useEffect(() => () => {
		workloads?.setInterest([]);
		workloads?.setWantedLogs([]);
	}, [workloads]);
}
