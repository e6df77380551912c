/**
 * The header of a first command on a shared cluster at 80 columns: `planwatch -A` by a Kanister-only user, whose
 * context name is long. The names give way, and a name that gave way entirely leaves no empty ` · ` behind, nor a
 * lone letter (the scope `all namespaces` was once cut to `a`).
 */
import {afterEach, expect, test} from 'vitest';
import {FakeClock} from '../helpers/fake-clock.js';
import {renderLiveHeader} from '../helpers/live-header.js';
import {cleanupUi} from '../helpers/ui.js';

afterEach(() => {
	cleanupUi();
});

test.each([80, 90, 100, 120])('at %i columns no separator stands alone (names give way with theirs)', async width => {
	const clock = new FakeClock(Date.UTC(2026, 10, 30, 11, 0, 0));
	const app = renderLiveHeader(clock, {
		context: 'kanister@planwatch-e2e',
		scope: 'all namespaces',
		phase: 'watching',
		missing: [{resource: 'Instance'}],
		width,
	});
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
