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
