/** An App element wired to fakes, for harnesses that render it themselves (headless terminal). */
import {FakeClock} from './fake-clock.js';
import type {StoreSnapshot} from '../../source/state/store.js';
import {App} from '../../source/ui/app.js';
import type {AsOf} from '../../source/model/as-of.js';
import {FakeStore} from './fake-store.js';
import {FakeWait} from './fake-wait.js';

export type AppElementOptions = {
	readonly snapshot: StoreSnapshot;
	readonly targets?: readonly string[];
	readonly wait?: FakeWait;
	readonly ascii?: boolean;
	readonly color?: boolean;
	/** Default UTC: tests never depend on the machine's zone. */
	readonly timeZone?: string;
	readonly onQuit?: () => void;
	/** A static snapshot's moment (`-f`). */
	readonly asOf?: AsOf;
};

export function appElement(options: AppElementOptions) {
	const store = new FakeStore(options.snapshot);
	const clock = new FakeClock();
	const wait = options.wait ?? new FakeWait();
	const element = (
		<App
			store={store}
			clock={clock}
			wait={wait}
			header={{context: 'kind-prod', scope: 'default'}}
			targets={options.targets}
			ascii={options.ascii ?? false}
			color={options.color ?? true}
			timeZone={options.timeZone ?? 'UTC'}
			onQuit={options.onQuit ?? (() => {})}
			{...(options.asOf ? {asOf: options.asOf} : {})}
		/>
	);
	return {element, store, clock, wait};
}
