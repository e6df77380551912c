import {describe, expect, it} from 'vitest';
import {createMultiContextSource} from '../../source/sources/multi-context-source.js';
import type {InterestFeed, ObjectSource, SourceEvent, SourceSink} from '../../source/state/object-source.js';
import {Workloads} from '../../source/state/workloads.js';
import {FakeClock} from '../helpers/fake-clock.js';

/** A context's source that keeps the feed it was asked to follow and lets the test send events. */
function child(): ObjectSource & {feed?: InterestFeed; send(e: SourceEvent): void} {
	let sink: SourceSink | undefined;
	const source = {
		label: 'c',
		scope: 'ns',
		feed: undefined as InterestFeed | undefined,
		start(s: SourceSink) {
			sink = s;
		},
		stop() {},
		follow(feed: InterestFeed) {
			source.feed = feed;
		},
		send(e: SourceEvent) {
			sink?.(e);
		},
	};
	return source;
}

describe('several contexts follow pods and logs each for their own nodes', () => {
	it('each context sees only its interest and logs, without the context; what it sends comes back tagged', () => {
		const prod = child();
		const dr = child();
		const source = createMultiContextSource([{context: 'prod', source: prod}, {context: 'dr', source: dr}], 'ns');
		const received: SourceEvent[] = [];
		source.start(e => received.push(e));
		const workloads = new Workloads(new FakeClock());
		source.follow!(workloads);
		workloads.setInterest([{context: 'prod', kind: 'Instance', namespaces: ['shop']}, {context: 'dr', kind: 'ActionSet', namespaces: ['kanister']}]);
		workloads.setWantedLogs([{context: 'dr', namespace: 'kanister', pod: 'kanister-job-a', container: 'container', previous: false}]);
		expect(prod.feed!.interest()).toEqual([{kind: 'Instance', namespaces: ['shop']}]);
		expect(prod.feed!.wantedLogs()).toEqual([]);
		expect(dr.feed!.interest()).toEqual([{kind: 'ActionSet', namespaces: ['kanister']}]);
		expect(dr.feed!.wantedLogs()).toEqual([{namespace: 'kanister', pod: 'kanister-job-a', container: 'container', previous: false}]);
		dr.send({type: 'log', namespace: 'kanister', pod: 'kanister-job-a', container: 'container', previous: false, text: 'x\n'});
		expect(received.find(e => e.type === 'log')).toMatchObject({type: 'log', context: 'dr', pod: 'kanister-job-a'});
	});
});
