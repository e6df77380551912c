/**
 * The header of a first command on a shared cluster at 80 columns: `planwatch -A` by a Kanister-only user, whose
 * context name is long. The names give way, and a name that gave way entirely leaves no empty ` · ` behind, nor a
 * lone letter (the scope `all namespaces` was once cut to `a`).
 */
import {afterEach, expect, test} from 'vitest';
import {HeaderBar} from '../../source/ui/components/header-bar.js';
import {TicksContext, tickSource} from '../../source/ui/ticks.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {cleanupUi, renderUi} from '../helpers/ui.js';

afterEach(() => {
	cleanupUi();
});

test.each([80, 90, 100, 120])('at %i columns no separator stands alone (names give way with theirs)', async width => {
	const clock = new FakeClock(Date.UTC(2026, 10, 30, 11, 0, 0));
	const eventAt = clock.now();
	const app = renderUi(
		<TicksContext.Provider value={tickSource(clock)}>
			<HeaderBar
				context="kanister@planwatch-e2e"
				scope="all namespaces"
				connection={{status: 'live'}}
				lastEventAt={() => eventAt}
				wait={{phase: 'watching', startedAt: clock.now(), extendMs: 300_000, extendedMs: 0}}
				missing={[{resource: 'Instance'}]}
				width={width}
			/>
		</TicksContext.Provider>,
		{columns: width},
	);
	await app.waitForFrame(f => f.includes('planwatch') && f.includes('live'), {what: 'the header'});
	const line = app.lastFrame()!.split('\n')[0]!;
	expect(line).toMatch(/^planwatch · /);
	expect(line, line).not.toMatch(/· {1,2}·/);
	expect(line).toContain('● live');
	// Between `planwatch` and the zone: whole names, or names cut to 8 cells or more with a marker; no lone letter.
	const fields = line.split(' · ');
	for (const field of fields.slice(1, fields.indexOf('UTC'))) {
		expect(['kanister@planwatch-e2e', 'all namespaces'].includes(field) || (field.length >= 8 && field.endsWith('…')), line).toBe(true);
	}
});
