/**
 * Shell completion as a user gets it: the engine's quick list against the in-process watch server (fixture
 * objects on 127.0.0.1), and the bash script run in bash against the built bin, with COMP_WORDS as bash sets
 * them on <TAB> — plus kubectl's route, the bin invoked as kubectl_complete-planwatch.
 */
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {listTargetNames} from '../../source/cli/complete-targets.js';
import {completionScripts} from '../../source/cli/completion-scripts.js';
import {loadFixture} from '../helpers/fixtures.js';
import {run} from '../helpers/processes.js';
import {binPath, buildBin, runBin} from '../helpers/run-bin.js';
import {actionSets, instances, WatchServer, writeKubeconfig} from '../helpers/watch-server.js';

let server: WatchServer;
let kubeconfig: string;
let bin: string;

/** Put a fixture on the server under `name` in `namespace`. */
function put(fixture: string, name: string, namespace = 'default'): void {
	const [object] = loadFixture(fixture);
	const def = object!.kind === 'Instance' ? instances : actionSets;
	server.put(def, {...object, metadata: {...object!.metadata, name, namespace}} as Parameters<WatchServer['put']>[1]);
}

beforeAll(async () => {
	buildBin();
	server = await WatchServer.start();
	put('kudo/instance-mysql-deploy-in-progress.yaml', 'mysql-instance');
	put('kudo/instance-kafka-deploy-transient-error.yaml', 'kafka');
	put('kanister/actionset-mysql-backup-complete.yaml', 'backup-mysql-x7k2p');
	put('kanister/actionset-postgres-backup-defer-failed.yaml', 'backup-pg-9fz', 'db');
	kubeconfig = await writeKubeconfig({server: server.url});
	// The bin under the name a user types, on PATH (bash runs COMP_WORDS[0]).
	bin = mkdtempSync(path.join(os.tmpdir(), 'planwatch-completion-'));
	symlinkSync(binPath, path.join(bin, 'planwatch'));
	symlinkSync(binPath, path.join(bin, 'kubectl_complete-planwatch'));
	writeFileSync(path.join(bin, 'completion.bash'), completionScripts.bash);
});

afterAll(async () => {
	await server.close();
	rmSync(bin, {recursive: true, force: true});
});

describe('listTargetNames', () => {
	it('lists the namespace\'s Instances and ActionSets as targets', async () => {
		expect(await listTargetNames({kubeconfig}, {env: {}})).toEqual(['instance/kafka', 'instance/mysql-instance', 'actionset/backup-mysql-x7k2p']);
		expect(await listTargetNames({kubeconfig, namespace: 'db'}, {env: {}})).toEqual(['actionset/backup-pg-9fz']);
	});

	it('gives up quietly: nothing when the cluster does not answer in time or the kubeconfig is missing', async () => {
		server.holdNext({plural: 'instances'});
		server.holdNext({plural: 'actionsets'});
		const asked = server.count({plural: 'instances'});
		// The server never answers these: the call returns only because its own timeout gave up (without it, the
		// test's hang bound fails it). No wall-clock budget: a loaded machine may take its time.
		expect(await listTargetNames({kubeconfig}, {timeoutMs: 300, env: {}})).toEqual([]);
		expect(server.count({plural: 'instances'})).toBeGreaterThan(asked);
		expect(await listTargetNames({kubeconfig: '/nonexistent/kubeconfig'}, {env: {}})).toEqual([]);
	});

	it('drops names no Kubernetes object can have (the shell would insert them into the command line)', async () => {
		put('kudo/instance-mysql-deploy-in-progress.yaml', '$(touch pwned)', 'hostile');
		put('kudo/instance-mysql-deploy-in-progress.yaml', 'ok-name', 'hostile');
		expect(await listTargetNames({kubeconfig, namespace: 'hostile'}, {env: {}})).toEqual(['instance/ok-name']);
	});
});

/** bash: load the script, set COMP_WORDS/COMP_CWORD as <TAB> after `line` would, print COMPREPLY one a line. */
async function bashComplete(line: string): Promise<{replies: string[]; code: number; stderr: string}> {
	const words = line.split(' ');
	const script = `source ${JSON.stringify(path.join(bin, 'completion.bash'))}
COMP_WORDS=(${words.map(w => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}
$(complete -p planwatch | sed -E 's/.* -F ([^ ]+) .*/\\1/') planwatch "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"`;
	const {stdout, stderr, code} = await run('bash', ['--norc', '--noprofile', '-c', script], {
		env: {PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`, KUBECONFIG: kubeconfig, HOME: bin},
	});
	return {replies: stdout.split('\n').filter(l => l !== ''), code, stderr};
}

describe('planwatch completion bash, in bash', () => {
	it.each([
		['planwatch ', ['demo', 'replay', 'version', 'completion', 'instances', 'actionsets', 'instance/', 'actionset/', 'instance/kafka', 'instance/mysql-instance', 'actionset/backup-mysql-x7k2p']],
		['planwatch instance/m', ['instance/mysql-instance']],
		['planwatch instances ', ['kafka', 'mysql-instance']],
		['planwatch -n db actionset/', ['actionset/', 'actionset/backup-pg-9fz']],
		['planwatch demo --scenario postgres-', ['postgres-restore-failed']],
		['planwatch -o ', ['tui', 'plain', 'json']],
		['planwatch --wa', ['--wait']],
		['planwatch completion ', ['bash', 'zsh', 'fish']],
	])('%s<TAB>', async (line, expected) => {
		const {replies, code, stderr} = await bashComplete(line);
		expect(stderr).toBe('');
		expect(code).toBe(0);
		expect(replies).toEqual(expected);
	});

	it('registers for planwatch and kubectl-planwatch', async () => {
		const {replies} = await bashComplete('planwatch --no-c');
		expect(replies).toEqual(['--no-color']);
		const child = spawn('bash', ['--norc', '-c', `source ${JSON.stringify(path.join(bin, 'completion.bash'))}; complete -p kubectl-planwatch`]);
		let stdout = '';
		child.stdout.setEncoding('utf8').on('data', (d: string) => {
			stdout += d;
		});
		await new Promise(resolve => child.on('close', resolve));
		expect(stdout).toBe('complete -F _planwatch_complete kubectl-planwatch\n');
	});
});

describe('kubectl_complete-planwatch (kubectl 1.26+ plugin completion)', () => {
	it('answers kubectl with candidates and a directive, like `planwatch __complete`', async () => {
		const viaKubectl = await runBin(['instance/'], {command: [process.execPath, path.join(bin, 'kubectl_complete-planwatch')], env: {KUBECONFIG: kubeconfig}});
		expect(viaKubectl.stdout).toBe('instance/\ninstance/kafka\ninstance/mysql-instance\n:4\n');
		expect(viaKubectl.code).toBe(0);
		const direct = await runBin(['__complete', 'instance/'], {env: {KUBECONFIG: kubeconfig}});
		expect(direct.stdout).toBe(viaKubectl.stdout);
	});

	it('prints the scripts for each shell', async () => {
		for (const shell of ['bash', 'zsh', 'fish'] as const) {
			const result = await runBin(['completion', shell]);
			expect(result.code).toBe(0);
			expect(result.stdout).toBe(completionScripts[shell]);
			expect(result.stdout).toContain('__complete');
		}
	});
});
