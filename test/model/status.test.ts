import {describe, expect, it} from 'vitest';
import type {NodeState, Outcome} from '../../source/model/plan-tree.js';
import {isActiveState, isFinishedState, kanisterState, kudoState, outcomeState, statusLook, statusText, type StatusLook} from '../../source/model/status.js';

describe('kudoState: KUDO ExecutionStatus → state', () => {
	it.each<[string | undefined, NodeState]>([
		['NEVER_RUN', 'inactive'],
		['PENDING', 'pending'],
		['IN_PROGRESS', 'running'],
		// KUDO retries ERROR: it is not a failure.
		['ERROR', 'retrying'],
		['COMPLETE', 'succeeded'],
		['FATAL_ERROR', 'failed'],
		// Kanister's words, another case, empty and missing are not KUDO statuses.
		['complete', 'unknown'],
		['Complete', 'unknown'],
		['', 'unknown'],
		[undefined, 'unknown'],
	])('%s → %s', (raw, state) => {
		expect(kudoState(raw)).toBe(state);
	});
});

describe('kanisterState: Kanister State → state', () => {
	it.each<[string | undefined, NodeState]>([
		['pending', 'pending'],
		['running', 'running'],
		['complete', 'succeeded'],
		['failed', 'failed'],
		// KUDO's words, another case, empty and missing are not Kanister states.
		['COMPLETE', 'unknown'],
		['Failed', 'unknown'],
		['', 'unknown'],
		[undefined, 'unknown'],
	])('%s → %s', (raw, state) => {
		expect(kanisterState(raw)).toBe(state);
	});
});

describe('statusLook: the icon, ASCII icon, word and colour role of each state', () => {
	it.each<[NodeState, StatusLook]>([
		['succeeded', {icon: '✔', ascii: '[ok]', word: 'succeeded', role: 'success'}],
		['running', {icon: '●', ascii: '[..]', word: 'running', role: 'running'}],
		['retrying', {icon: '↻', ascii: '[~~]', word: 'retrying', role: 'warning'}],
		['failed', {icon: '✖', ascii: '[XX]', word: 'failed', role: 'error'}],
		['pending', {icon: '◌', ascii: '[  ]', word: 'pending', role: 'muted'}],
		['inactive', {icon: '─', ascii: '[--]', word: 'inactive', role: 'muted'}],
		['stopped', {icon: '■', ascii: '[||]', word: 'stopped', role: 'warning'}],
		['unknown', {icon: '?', ascii: '[??]', word: 'unknown', role: 'unknown'}],
	])('%s', (state, look) => {
		expect(statusLook(state)).toEqual(look);
	});

	it('gives every state its own icon and ASCII icon, all four ASCII columns wide', () => {
		const states: NodeState[] = ['succeeded', 'running', 'retrying', 'failed', 'pending', 'inactive', 'stopped', 'unknown'];
		expect(new Set(states.map(s => statusLook(s).icon)).size).toBe(states.length);
		expect(new Set(states.map(s => statusLook(s).ascii)).size).toBe(states.length);
		expect(states.every(s => statusLook(s).ascii.length === 4)).toBe(true);
	});
});

describe('finished and active states (the timer stops / runs)', () => {
	it.each<[NodeState, boolean, boolean]>([
		['succeeded', true, false],
		['failed', true, false],
		// A stopped node will never move again.
		['stopped', true, false],
		['running', false, true],
		// KUDO retries: the timer keeps running.
		['retrying', false, true],
		['pending', false, false],
		['inactive', false, false],
		['unknown', false, false],
	])('%s: finished %s, active %s', (state, finished, active) => {
		expect(isFinishedState(state)).toBe(finished);
		expect(isActiveState(state)).toBe(active);
	});
});

describe('statusText: the raw status with the reason the state differs from it', () => {
	it.each<[string, {status: string; statusReason?: string}, string | undefined, string]>([
		['the raw word alone', {status: 'pending'}, undefined, 'pending'],
		['the raw word and the reason', {status: 'pending', statusReason: 'running per progress'}, undefined, 'pending (running per progress)'],
		['no raw word, a reason: the reason alone, in parentheses', {status: '', statusReason: 'missing'}, undefined, '(missing)'],
		['no raw word, no reason: empty', {status: ''}, undefined, ''],
		['no raw word: the caller\'s stand-in', {status: ''}, '-', '-'],
		['no raw word, a reason: the stand-in with the reason', {status: '', statusReason: 'missing'}, '-', '- (missing)'],
		['a raw word: the stand-in is not used', {status: 'IN_PROGRESS'}, '-', 'IN_PROGRESS'],
		['an empty reason counts as none', {status: 'COMPLETE', statusReason: ''}, undefined, 'COMPLETE'],
	])('%s', (_, node, empty, text) => {
		expect(empty === undefined ? statusText(node) : statusText(node, empty)).toBe(text);
	});
});

describe('outcomeState: an object outcome as a node state', () => {
	it.each<[Outcome, NodeState]>([
		['running', 'running'],
		['succeeded', 'succeeded'],
		['failed', 'failed'],
		['unknown', 'unknown'],
	])('%s → %s', (outcome, state) => {
		expect(outcomeState(outcome)).toBe(state);
	});
});
