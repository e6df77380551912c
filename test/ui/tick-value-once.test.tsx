/**
 * A tick value's selection runs once per render and tick, counted: React reads a useSyncExternalStore snapshot at
 * render and again after the commit, and the header's selections measure every variant of its line.
 */
import {Text} from 'ink';
import {afterEach, expect, test} from 'vitest';
import {TicksContext, tickSource, useTickValue} from '../../source/ui/ticks.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {cleanupUi, renderUi} from '../helpers/ui.js';

afterEach(() => {
	cleanupUi();
});

let selections = 0;

function Shown(props: {readonly label: string}) {
	const seconds = useTickValue(now => {
		selections++;
		return `${props.label} ${Math.floor(now / 1000) % 60}s`;
	});
	return <Text>{seconds}</Text>;
}

test('a render and a tick each run the selection once, and the value still follows both', async () => {
	const clock = new FakeClock(Date.UTC(2026, 10, 30, 11, 0, 0));
	const ticks = tickSource(clock);
	const tree = (label: string) => (
		<TicksContext.Provider value={ticks}>
			<Shown label={label} />
		</TicksContext.Provider>
	);
	const app = renderUi(tree('a0'));
	await app.waitForFrame(f => f.includes('a0 0s'), {what: 'the first frame'});
	selections = 0;
	for (let i = 1; i <= 10; i++) {
		app.instance.rerender(tree(`a${i}`));
		await app.waitForFrame(f => f.includes(`a${i} 0s`), {what: `render ${i}`});
	}

	// Without the memo React runs it three times per render (render, the check after the commit), 30 here.
	expect(selections).toBe(10);
	selections = 0;
	for (let i = 1; i <= 5; i++) {
		clock.advance(1000);
		await app.waitForFrame(f => f.includes(`a10 ${i}s`), {what: `tick ${i}`});
	}

	// Per tick: the store's listener asks (a new time), the render asks again with its new selection.
	expect(selections).toBe(10);
});
