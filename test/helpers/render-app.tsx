/** The App wired to fakes (store, clock, wait session) for view tests. */
import type {FakeClock} from './fake-clock.js';
import type {StoreSnapshot} from '../../source/state/store.js';
import {appElement} from './app-element.js';
import type {FakeStore} from './fake-store.js';
import type {FakeWait} from './fake-wait.js';
import {renderUi, type Rendered} from './ui.js';
import type {AsOf} from '../../source/model/as-of.js';

export type AppTestOptions = {
	readonly snapshot: StoreSnapshot;
	readonly wait?: FakeWait;
	readonly targets?: readonly string[];
	readonly ascii?: boolean;
	readonly color?: boolean;
	readonly timeZone?: string;
	readonly columns?: number;
	readonly rows?: number;
	readonly stdinIsTTY?: boolean;
	readonly asOf?: AsOf;
};

export type RenderedApp = Rendered & {
	readonly store: FakeStore;
	readonly wait: FakeWait;
	readonly clock: FakeClock;
	/** How many times onQuit was called. */
	quits(): number;
};

export function renderApp(options: AppTestOptions): RenderedApp {
	let quits = 0;
	const {element, store, clock, wait} = appElement({
		...options,
		onQuit() {
			quits++;
		},
	});
	const rendered = renderUi(element, {columns: options.columns ?? 110, rows: options.rows ?? 30, stdinIsTTY: options.stdinIsTTY});
	return {...rendered, store, wait, clock, quits: () => quits};
}
