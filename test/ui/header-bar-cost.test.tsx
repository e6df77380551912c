/**
 * What a 1 Hz tick costs the header: counted, not timed. Naming the machine's time zone builds an
 * Intl.DateTimeFormat (about a millisecond); a tick must not build one.
 */
import {afterEach, expect, test, vi} from 'vitest';
import * as headerFit from '../../source/ui/header-fit.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {renderLiveHeader} from '../helpers/live-header.js';
import {cleanupUi} from '../helpers/ui.js';

vi.mock('../../source/ui/header-fit.js', async importOriginal => {
	const actual = await importOriginal<typeof import('../../source/ui/header-fit.js')>();
	return {...actual, pickHeaderVersion: vi.fn(actual.pickHeaderVersion)};
});

const RealDateTimeFormat = Intl.DateTimeFormat;

afterEach(() => {
	Intl.DateTimeFormat = RealDateTimeFormat;
	cleanupUi();
});

test('a tick redraws the header timers without building a date format', async () => {
	const clock = new FakeClock(Date.UTC(2026, 10, 30, 11, 0, 0));
	let built = 0;
	Intl.DateTimeFormat = new Proxy(RealDateTimeFormat, {
		construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
			built++;
			return new target(...args);
		},
	});
	// The default theme names no zone: the header resolves the machine's.
	const app = renderLiveHeader(clock, {context: 'prod', scope: 'default', phase: 'waiting', width: 140});
	await app.waitForFrame(f => f.includes('elapsed 0:00'), {what: 'the header'});
	const before = built;
	for (let i = 1; i <= 5; i++) {
		clock.advance(1000);
		await app.waitForFrame(f => f.includes(`elapsed 0:0${i}`), {what: `the header ${i}s on`});
	}

	expect(built - before).toBe(0);
});

test('a tick that keeps the widths of the header texts keeps its version without fitting the versions again', async () => {
	const clock = new FakeClock(Date.UTC(2026, 10, 30, 11, 0, 0));
	const app = renderLiveHeader(clock, {context: 'prod', scope: 'default', phase: 'waiting', width: 140});
	await app.waitForFrame(f => f.includes('elapsed 0:00'), {what: 'the header'});
	const pick = vi.mocked(headerFit.pickHeaderVersion);
	pick.mockClear();
	// 0:01 … 0:05 and the event's age 1s … 5s: the same widths.
	for (let i = 1; i <= 5; i++) {
		clock.advance(1000);
		await app.waitForFrame(f => f.includes(`elapsed 0:0${i}`) && f.includes(`${i}s ago`), {what: `the header ${i}s on`});
	}

	expect(pick).not.toHaveBeenCalled();
	// The age goes to two digits: a width moved, the versions are fitted again.
	clock.advance(5000);
	await app.waitForFrame(f => f.includes('elapsed 0:10') && f.includes('10s ago'), {what: 'the header 10s on'});
	expect(pick).toHaveBeenCalled();
});
