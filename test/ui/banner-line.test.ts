import {describe, expect, test} from 'vitest';
import {bannerLine} from '../../source/ui/components/timeout-banner.js';
import {createTheme} from '../../source/ui/theme.js';
import {displayWidth} from '../../source/model/display-width.js';

const theme = createTheme({color: false, ascii: false});
const done = (message: string, exitCode: number) => ({wait: {phase: 'done' as const, startedAt: 0, extendMs: 0, extendedMs: 0, result: {exitCode, message}}, now: 0});

describe('the outcome line', () => {
	test('a long message at 120 columns is cut, its (exit code N) kept', () => {
		const message = `cannot tell which plan ran last (deploy COMPLETE, fails FATAL_ERROR): ${'x'.repeat(200)}`;
		const line = bannerLine(done(message, 1), theme, 120)!.text;
		expect(line.endsWith(' (exit code 1)')).toBe(true);
		expect(displayWidth(line)).toBeLessThanOrEqual(120);
		expect(line).toContain('…');
	});

	test('a short one is left whole', () => {
		expect(bannerLine(done('deploy completed', 0), theme, 120)!.text).toBe('✔ deploy completed (exit code 0)');
	});
});

describe('the banner under an open object (80×24 showed its summary twice, with two icons)', () => {
	const summary = 'restore failed in phase RestoreFromObjectStore: Failed to restore backup';
	test('the result that is the summary above says only how the wait ended', () => {
		expect(bannerLine({...done(summary, 1), echo: summary}, theme, 80)!.text).toBe('✖ wait over: failed (exit code 1)');
		expect(bannerLine({...done('deploy completed', 0), echo: 'deploy completed'}, theme, 80)!.text).toBe('✔ wait over: succeeded (exit code 0)');
		// Another object's summary (a list, several targets) is said in full.
		expect(bannerLine({...done(summary, 1), echo: 'something else'}, theme)!.text).toBe(`✖ ${summary} (exit code 1)`);
	});

	test('waiting on the summary above: said in a few words; a long wait reason is cut, marked', () => {
		const waiting = (waitingFor: string, echo?: string) => ({wait: {phase: 'waiting' as const, startedAt: 0, extendMs: 0, extendedMs: 0, waitingFor}, now: 0, echo});
		expect(bannerLine(waiting(summary, summary), theme, 80)!.text).toBe('◌ waiting for it to finish');
		const long = bannerLine(waiting(`${summary}; ${summary}`), theme, 80)!.text;
		expect(displayWidth(long)).toBe(80);
		expect(long.endsWith('…')).toBe(true);
	});

	test('the grace prompt keeps its keys and countdown at 80 columns', () => {
		const grace = {wait: {phase: 'grace' as const, startedAt: 0, deadlineAt: 120_000, graceEndsAt: 150_000, extendMs: 300_000, extendedMs: 0}, now: 130_000};
		expect(bannerLine(grace, theme, 120)!.text).toBe('⏰ Timeout reached after 2m — press + to wait 5m more, q to quit (exiting with code 3 in 20s)');
		const short = bannerLine(grace, theme, 80)!.text;
		expect(short).toBe('⏰ Timeout after 2m: + waits 5m more, q quits (exit 3 in 20s)');
		expect(displayWidth(short)).toBeLessThanOrEqual(80);
	});
});

describe('the summary line\'s icon', () => {
	test('a KUDO plan PENDING (taken by the controller) reads running; a queued one stays pending', async () => {
		const {lineState} = await import('../../source/ui/components/object-lines.js');
		const {adaptInstance} = await import('../../source/model/adapt-kudo-instance.js');
		const {kudoInstance} = await import('../helpers/kudo-instance.js');
		const taken = adaptInstance(kudoInstance({deploy: {status: 'PENDING', at: '2026-01-01T10:00:00Z', uid: 'u1'}}, {planName: 'deploy', uid: 'u1'}));
		expect(taken.state).toBe('pending');
		expect(lineState(taken)).toBe('running');
		const queued = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:00Z', uid: 'u0'}}, {planName: 'deploy', uid: 'u1'}));
		expect(lineState(queued)).toBe('pending');
	});
});
