import {describe, expect, it} from 'vitest';
import {FakeClock} from '../helpers/fake-clock.js';
import {ReplayClock} from '../../source/recording/replay-clock.js';

const recorded = Date.parse('2026-11-30T09:00:00Z');

function setup(speed = 1) {
	const real = new FakeClock();
	const clock = new ReplayClock(real, recorded, speed);
	const fired: Array<[string, number]> = [];
	const at = (name: string, ms: number) => clock.after(ms, () => fired.push([name, clock.now() - recorded]));
	return {real, clock, fired, at};
}

describe('replay clock', () => {
	it('reads recorded time, moving speed times faster than the real clock', () => {
		const {real, clock} = setup(4);
		expect(clock.now()).toBe(recorded);
		real.advance(1000);
		expect(clock.now()).toBe(recorded + 4000);
	});

	it('fires timers in recorded time, each seeing its own moment', () => {
		const {real, fired, at} = setup(2);
		at('b', 3000);
		at('a', 1000);
		real.advance(499);
		expect(fired).toEqual([]);
		real.advance(1);
		expect(fired).toEqual([['a', 1000]]);
		real.advance(1000);
		expect(fired).toEqual([['a', 1000], ['b', 3000]]);
	});

	it('stands still while paused: no time passes, no timer fires', () => {
		const {real, clock, fired, at} = setup();
		at('a', 1000);
		real.advance(400);
		clock.setPaused(true);
		real.advance(10_000);
		expect(clock.now()).toBe(recorded + 400);
		expect(fired).toEqual([]);
		clock.setPaused(false);
		real.advance(600);
		expect(fired).toEqual([['a', 1000]]);
	});

	it('a forward seek fires every timer on the way, in order, also those they schedule', () => {
		const {clock, fired, at} = setup();
		at('c', 5000);
		at('a', 1000);
		clock.after(2000, () => {
			fired.push(['b', clock.now() - recorded]);
			at('b2', 0);
		});
		clock.seek(recorded + 4000);
		expect(fired).toEqual([['a', 1000], ['b', 2000], ['b2', 2000]]);
		expect(clock.now()).toBe(recorded + 4000);
	});

	it('a backward seek fires nothing and keeps later timers', () => {
		const {real, clock, fired, at} = setup();
		real.advance(3000);
		at('a', 1000);
		clock.seek(recorded);
		expect(fired).toEqual([]);
		expect(clock.now()).toBe(recorded);
		real.advance(4000);
		expect(fired).toEqual([['a', 4000]]);
	});

	it('tells subscribers about pauses and seeks', () => {
		const {clock} = setup();
		let heard = 0;
		clock.subscribe(() => heard++);
		clock.setPaused(true);
		clock.setPaused(true);
		clock.seek(recorded + 5);
		expect(heard).toBe(2);
		expect(clock.paused).toBe(true);
	});
});

describe('replay clock ticks', () => {
	it('ticks once per recorded second from the first subscription, also across a seek, and again after a seek back', () => {
		const {real, clock} = setup(4);
		clock.seek(recorded + 300);
		const ticks: number[] = [];
		const off = clock.onTick(() => ticks.push(clock.now() - recorded));
		real.advance(500);
		expect(ticks).toEqual([1300, 2300]);
		clock.seek(recorded + 4500);
		expect(ticks).toEqual([1300, 2300, 3300, 4300]);
		clock.seek(recorded + 100);
		real.advance(300);
		expect(ticks.slice(4)).toEqual([300, 1300]);
		off();
		real.advance(10_000);
		expect(ticks).toHaveLength(6);
	});
});
