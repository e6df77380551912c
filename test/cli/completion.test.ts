/**
 * Shell completion as a user gets it: the engine's quick list against the in-process watch server (fixture
 * objects on 127.0.0.1), and the bash script run in bash against the built bin, with COMP_WORDS as bash sets
 * them on <TAB> — plus kubectl's route, the bin invoked as kubectl_complete-planwatch.
 */
import {spawn, spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import pty from 'node-pty';
import {listNamespaceNames, listTargetNames} from '../../source/cli/complete-targets.js';
import {completionScripts} from '../../source/cli/completion-scripts.js';
import {loadFixture} from '../helpers/fixtures.js';
import {waitUntil} from '../helpers/wait-until.js';
import {binPath, buildBin, runBin} from '../helpers/run-bin.js';
import {actionSets, allResources, instances, WatchServer, writeKubeconfig, type ResourceDef} from '../helpers/watch-server.js';

/** Core namespaces, served next to the CRDs so `-n <TAB>` has something to list. */
const namespaces: ResourceDef = {group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace'};

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
	server = await WatchServer.start({resources: [...allResources, namespaces]});
	for (const name of ['default', 'db', 'kube-system']) {
		server.put(namespaces, {metadata: {name}});
	}

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

describe('listNamespaceNames', () => {
	it('lists the cluster\'s namespaces for -n <TAB>, and nothing when that is forbidden', async () => {
		expect(await listNamespaceNames({kubeconfig}, {env: {}})).toEqual(['db', 'default', 'kube-system']);
		const restricted = await WatchServer.start({resources: [...allResources, namespaces]});
		try {
			restricted.put(namespaces, {metadata: {name: 'db'}});
			restricted.forbid('tester', 'namespaces');
			expect(await listNamespaceNames({kubeconfig: await writeKubeconfig({server: restricted.url})}, {env: {}})).toEqual([]);
			expect(restricted.count({plural: 'namespaces', status: 403})).toBe(1);
		} finally {
			await restricted.close();
		}
	});
});

/**
 * bash: load the script, set COMP_WORDS/COMP_CWORD as <TAB> after `line` would, print COMPREPLY one a line.
 * `words`: COMP_WORDS when bash splits the line elsewhere than at spaces (at `=`, COMP_WORDBREAKS).
 */
async function bashComplete(line: string, words = line.split(' ')): Promise<{replies: string[]; code: number | null; stderr: string}> {
	const script = `source ${JSON.stringify(path.join(bin, 'completion.bash'))}
COMP_WORDS=(${words.map(w => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}
$(complete -p planwatch | sed -E 's/.* -F ([^ ]+) .*/\\1/') planwatch "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"`;
	const child = spawn('bash', ['--norc', '--noprofile', '-c', script], {
		env: {PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`, KUBECONFIG: kubeconfig, HOME: bin},
	});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (d: string) => {
		stdout += d;
	});
	child.stderr.setEncoding('utf8').on('data', (d: string) => {
		stderr += d;
	});
	const code = await new Promise<number | null>(resolve => child.on('close', resolve));
	return {replies: stdout.split('\n').filter(l => l !== ''), code, stderr};
}

describe('planwatch completion bash, in bash', () => {
	it.each([
		[
			'planwatch ',
			['demo', 'replay', 'version', 'completion', 'help', 'instances', 'actionsets', 'instance/', 'actionset/', 'instance/kafka', 'instance/mysql-instance', 'actionset/backup-mysql-x7k2p'],
		],
		['planwatch instance/m', ['instance/mysql-instance']],
		['planwatch instances ', ['kafka', 'mysql-instance']],
		['planwatch -n db actionset/', ['actionset/backup-pg-9fz']],
		['planwatch -n ', ['db', 'default', 'kube-system']],
		['planwatch --namespace d', ['db', 'default']],
		['planwatch demo --scenario postgres-', ['postgres-restore-failed']],
		['planwatch -o ', ['tui', 'plain', 'json']],
		['planwatch --wai', ['--wait']],
		['planwatch completion ', ['bash', 'zsh', 'fish']],
	])('%s<TAB>', async (line, expected) => {
		const {replies, code, stderr} = await bashComplete(line);
		expect(stderr).toBe('');
		expect(code).toBe(0);
		expect(replies).toEqual(expected);
	});

	it('completes --output=<TAB> as bash splits it (at "="), without the descriptions zsh and fish show', async () => {
		// Bare values: readline replaces what follows the "=" (the pty test below types it).
		expect((await bashComplete('planwatch --output=', ['planwatch', '--output', '='])).replies).toEqual(['tui', 'plain', 'json']);
		expect((await bashComplete('planwatch --output=j', ['planwatch', '--output', '=', 'j'])).replies).toEqual(['json']);
		expect((await bashComplete('planwatch --namespace=db actionset/', ['planwatch', '--namespace', '=', 'db', 'actionset/'])).replies).toEqual(['actionset/backup-pg-9fz']);
	});

	it('in bash\'s own line editor (a pty): --output=<TAB><TAB> lists the values, never --output==', async () => {
		const shell = pty.spawn('bash', ['--norc', '--noprofile', '-i'], {
			cols: 160,
			rows: 30,
			env: {PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`, KUBECONFIG: kubeconfig, HOME: bin, PS1: '$ ', TERM: 'dumb'},
		});
		let output = '';
		shell.onData(d => {
			output += d;
		});
		try {
			shell.write(`source ${JSON.stringify(path.join(bin, 'completion.bash'))} && echo LOADED\r`);
			await waitUntil(() => output.includes('LOADED\r\n'), 'bash to load the script', 20_000);
			await waitUntil(() => output.slice(output.indexOf('LOADED\r\n')).includes('$ '), 'the prompt after loading', 20_000);
			output = '';
			shell.write('planwatch --output=\t\t');
			// Either the list of values (right) or an "=" inserted (the script's old reply `=json`…); bash rings the
			// bell (BEL) between what it echoes and what it inserts.
			const typed = () => output.replaceAll('\u0007', '');
			await waitUntil(() => /json\s+plain\s+tui/.test(typed()) || typed().includes('=='), 'bash to complete', 20_000);
			expect(typed()).not.toContain('==');
			expect(typed()).toMatch(/json\s+plain\s+tui/);
			output = '';
			shell.write('j\t');
			await waitUntil(() => typed().includes('son'), 'bash to complete json', 20_000);
			expect(typed()).not.toContain('==');
		} finally {
			shell.kill();
		}
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
		expect(viaKubectl.stdout).toBe('instance/kafka\ninstance/mysql-instance\n:4\n');
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

/** Whether `shell` is installed (the fish and zsh checks need it). */
function has(shell: string): boolean {
	return spawnSync(shell, ['-c', 'exit 0']).status === 0;
}

describe.skipIf(!has('fish'))('planwatch completion fish, in fish', () => {
	/** fish's own `complete -C`: the candidates (with their descriptions) it would offer for `line`. */
	async function fishComplete(line: string): Promise<string[]> {
		writeFileSync(path.join(bin, 'completion.fish'), completionScripts.fish);
		const script = `source ${JSON.stringify(path.join(bin, 'completion.fish'))}; complete -C ${JSON.stringify(line)}`;
		// Not spawnSync: the fake apiserver runs in this process and must answer meanwhile.
		const child = spawn('fish', ['--no-config', '-c', script], {env: {PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`, KUBECONFIG: kubeconfig, HOME: bin}});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (d: string) => {
			stdout += d;
		});
		child.stderr.setEncoding('utf8').on('data', (d: string) => {
			stderr += d;
		});
		await new Promise(resolve => child.on('close', resolve));
		expect(stderr).toBe('');
		return stdout.split('\n').filter(l => l !== '');
	}

	it('shows descriptions next to values and flags, and keeps --output= in front of its values', async () => {
		expect(await fishComplete('planwatch -o ')).toEqual(['json\tJSON (NDJSON while watching)', 'plain\ttext: status changes, then the final tree', 'tui\tinteractive tree (needs a terminal)']);
		expect(await fishComplete('planwatch --output=j')).toEqual(['--output=json\tJSON (NDJSON while watching)']);
		expect(await fishComplete('planwatch --wai')).toEqual(['--wait\texit when the targets finish']);
		expect(await fishComplete('planwatch -n k')).toEqual(['kube-system']);
		expect(await fishComplete('planwatch instance/m')).toEqual(['instance/mysql-instance']);
	});
});

describe.skipIf(!has('zsh'))('planwatch completion zsh, in zsh', () => {
	/** An interactive zsh in a pty (completion needs its line editor): type `line`, <TAB>, and read what it shows. */
	async function zshComplete(line: string, until: string): Promise<string> {
		writeFileSync(path.join(bin, 'completion.zsh'), completionScripts.zsh);
		const shell = pty.spawn('zsh', ['-f'], {cols: 160, rows: 30, env: {PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`, KUBECONFIG: kubeconfig, HOME: bin, PS1: '%% '}});
		let output = '';
		shell.onData(d => {
			output += d;
		});
		const seen = async (text: string) => waitUntil(() => output.includes(text), `zsh to show ${JSON.stringify(text)}`, 20_000);

		try {
			shell.write(`autoload -U compinit && compinit -u && source ${path.join(bin, 'completion.zsh')} && echo LOADED\r`);
			await seen('LOADED\r\n');
			// The prompt after it: the line editor is ready for the line.
			await waitUntil(() => output.slice(output.indexOf('LOADED\r\n')).includes('% '), 'the prompt after loading', 20_000);
			output = '';
			shell.write(`${line}\t`);
			await seen(until);
			return output;
		} finally {
			shell.kill();
		}
	}

	it('lists values with their descriptions', async () => {
		const shown = await zshComplete('planwatch -o ', 'tui    -- interactive tree');
		expect(shown).toContain('json   -- JSON (NDJSON while watching)');
		expect(shown).toContain('tui    -- interactive tree (needs a terminal)');
	});

	it('keeps --output= in front of the value it completes', async () => {
		expect(await zshComplete('planwatch --output=j', 'planwatch --output=json')).toContain('planwatch --output=json');
	});
});
