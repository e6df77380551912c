import {describe, expect, it} from 'vitest';
import type {FailureContext} from '../../source/kube/errors.js';
import {resourceTypes} from '../../source/kube/resources.js';
import {onStreamEnd, onWatchError, type WatchProgress} from '../../source/kube/watch-decisions.js';

const context: FailureContext = {server: 'https://127.0.0.1:6443', verb: 'watch', resource: resourceTypes.ActionSet, namespace: 'kanister'};
const progress = (p: Partial<WatchProgress> = {}): WatchProgress => ({firstAfterList: false, received: 3, opened: true, elapsedMs: 30_000, ...p});

describe('onWatchError: a watch ERROR event', () => {
	it.each<[string, Parameters<typeof onWatchError>[0], Partial<WatchProgress>, unknown]>([
		['410 → relist', {code: 410, reason: 'Expired'}, {}, {kind: 'expired', quick: false}],
		['Gone without a code → relist', {reason: 'Gone'}, {}, {kind: 'expired', quick: false}],
		['410 at once on the first watch after a list → quick (relisting at once will not help)', {code: 410}, {firstAfterList: true, received: 0}, {kind: 'expired', quick: true}],
		['500 → failed, retried with backoff', {code: 500, message: 'etcd timeout'}, {}, {kind: 'failed', failure: expect.objectContaining({kind: 'server'})}],
		['403 → failed (forbidden)', {code: 403, reason: 'Forbidden', message: 'no'}, {}, {kind: 'failed', failure: expect.objectContaining({kind: 'forbidden'})}],
	])('%s', (_, status, p, want) => {
		expect(onWatchError(status, progress(p), context)).toEqual(want);
	});
});

describe('onStreamEnd: the stream ended', () => {
	const timeout = Object.assign(new Error('inactive'), {name: 'TimeoutError'});
	it.each<[string, unknown, Partial<WatchProgress>, unknown]>([
		['closed by the server after a while → rewatch', undefined, {}, {kind: 'closed'}],
		['closed at once with nothing sent → failed', null, {received: 0, elapsedMs: 200}, {kind: 'failed', failure: {kind: 'server', message: 'the watch of actionsets closed as soon as it opened'}}],
		['closed at once after events → rewatch', null, {received: 1, elapsedMs: 200}, {kind: 'closed'}],
		['inactivity timeout on an open stream → rewatch', timeout, {}, {kind: 'closed'}],
		['inactivity timeout, never answered → failed', timeout, {opened: false}, {kind: 'failed', failure: {kind: 'server', message: 'the cluster did not answer a watch of actionsets'}}],
		[
			'connection refused → failed (unreachable)',
			Object.assign(new Error('connect ECONNREFUSED'), {code: 'ECONNREFUSED'}),
			{},
			{kind: 'failed', failure: expect.objectContaining({kind: 'unreachable'})},
		],
	])('%s', (_, error, p, want) => {
		expect(onStreamEnd(error, progress(p), context)).toEqual(want);
	});
});
