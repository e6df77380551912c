import {describe, expect, it} from 'vitest';
import {watchQuery} from '../../source/kube/list-watch.js';

describe('watchQuery: the query of one WATCH', () => {
	it.each<[string, Parameters<typeof watchQuery>, ReturnType<typeof watchQuery>]>([
		['bookmarks, from the resourceVersion, the shortest timeout at random 0', [{}, '42', 0], {allowWatchBookmarks: true, resourceVersion: '42', timeoutSeconds: 300}],
		['the timeout spread towards 10 minutes by random', [{}, '42', 0.999], {allowWatchBookmarks: true, resourceVersion: '42', timeoutSeconds: 599}],
		[
			'the selectors when given',
			[{labelSelector: 'app=db', fieldSelector: 'metadata.name=x'}, '7', 0.5],
			{allowWatchBookmarks: true, resourceVersion: '7', timeoutSeconds: 450, labelSelector: 'app=db', fieldSelector: 'metadata.name=x'},
		],
		['empty selectors are left out', [{labelSelector: '', fieldSelector: ''}, '7', 0], {allowWatchBookmarks: true, resourceVersion: '7', timeoutSeconds: 300}],
	])('%s', (_, args, want) => {
		expect(watchQuery(...args)).toEqual(want);
	});
});
