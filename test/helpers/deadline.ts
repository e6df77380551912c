/**
 * A deadline that only catches hangs, never a busy machine. A wait polls; its budget is counted in the CPU time
 * this test process spends (the polling loop included), which a loaded machine hands out more slowly but never
 * takes away: on an idle machine the budget passes in about the same wall time as before, at load 20 it stretches
 * with the machine. A wait whose process sleeps (a condition on another process, an idle hang) is still bounded on
 * the wall clock, at a bound `backstop` times longer (at least a minute), which no slow machine reaches: the test's
 * own timeout (vitest.config.ts) is the last bound.
 */
import {performance} from 'node:perf_hooks';

const backstop = 20;

export type Deadline = {
	/** The budget is spent: this process used `ms` of CPU, or the wall-clock bound passed. */
	expired(): boolean;
};

export function deadline(ms: number): Deadline {
	const cpu = process.cpuUsage();
	const wall = performance.now();
	const wallBound = Math.max(60_000, ms * backstop);
	return {
		expired() {
			const used = process.cpuUsage(cpu);
			return (used.user + used.system) / 1000 >= ms || performance.now() - wall >= wallBound;
		},
	};
}
