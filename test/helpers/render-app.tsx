/** The App wired to fakes (store, clock, wait session) for view tests. */
import {FakeClock} from '../../source/state/clock.js';
import type {StoreSnapshot} from '../../source/state/store.js';
import {App} from '../../source/ui/app.js';
import {FakeStore} from './fake-store.js';
import {FakeWait} from './fake-wait.js';
import {renderUi, type Rendered} from './ui.js';

export type AppTestOptions = {
	readonly snapshot: StoreSnapshot;
	readonly wait?: FakeWait;
	readonly targets?: readonly string[];
	readonly ascii?: boolean;
	readonly color?: boolean;
	readonly columns?: number;
	readonly rows?: number;
	readonly stdinIsTTY?: boolean;
};

export type RenderedApp = Rendered & {
	readonly store: FakeStore;
	readonly wait: FakeWait;
	readonly clock: FakeClock;
	/** How many times onQuit was called. */
	quits(): number;
};

export function renderApp(options: AppTestOptions): RenderedApp {
	const store = new FakeStore(options.snapshot);
	const wait = options.wait ?? new FakeWait();
	const clock = new FakeClock();
	let quits = 0;
	const rendered = renderUi(
		<App
			store={store}
			clock={clock}
			wait={wait}
			header={{context: 'kind-prod', scope: 'default'}}
			targets={options.targets}
			ascii={options.ascii ?? false}
			color={options.color ?? true}
			onQuit={() => {
				quits++;
			}}
		/>,
		{columns: options.columns ?? 110, rows: options.rows ?? 30, stdinIsTTY: options.stdinIsTTY},
	);
	return {...rendered, store, wait, clock, quits: () => quits};
}
