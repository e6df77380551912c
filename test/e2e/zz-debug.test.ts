import {it, expect} from 'vitest';
import {setTimeout as sleep} from 'node:timers/promises';
import {startKudoCluster} from './harness/kudo.js';

it('debug generation bumps', async () => {
	const kudo = await startKudoCluster();
	try {
		const ns = 'dbg';
		const install = await kudo.install(ns, 'app');
		expect(install.code, install.stderr).toBe(0);
		await sleep(3000);
		const t = await kudo.kudo(['plan', 'trigger', '--name', 'staged', '--instance', 'app'], ns);
		console.log('trigger', t.code, t.stdout, t.stderr);
		let last = '';
		for (let i = 0; i < 25; i++) {
			const r = await kudo.cluster.request('GET', `/apis/apps/v1/namespaces/${ns}/deployments/app-app-a`);
			const d = r.json as any;
			if (r.status === 200) {
				const {managedFields, ...meta} = d.metadata;
				const now = JSON.stringify({gen: meta.generation, rv: meta.resourceVersion, spec: d.spec, ann: meta.annotations});
				if (now !== last) { console.log(new Date().toISOString(), now); last = now; }
				if (i === 3) { await kudo.makeDeploymentHealthy(ns, 'app-app-a'); console.log('healthy written'); }
			}
			await sleep(300);
		}
		const ev = await kudo.cluster.request('GET', `/api/v1/namespaces/${ns}/events`);
		for (const e of (ev.json as any).items) console.log('EVENT', e.involvedObject.kind, e.reason, JSON.stringify(e.message), e.firstTimestamp, e.lastTimestamp, e.count, e.metadata.resourceVersion, e.source?.component, e.eventTime, e.reportingComponent);
	} finally { await kudo.stop(); }
}, 300_000);
