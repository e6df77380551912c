/**
 * `planwatch completion bash|zsh|fish`: scripts that ask the program itself (`planwatch __complete …`, see
 * complete.ts) for candidates, so flags, scenario names and the cluster's objects stay in one place. They run
 * the command the user typed (`planwatch`, `kubectl-planwatch`, a path), read candidates one a line, and
 * never let the shell expand them (no `compgen -W`, which would evaluate `$(…)` in a candidate).
 */
import type {CompletionShell} from './parse-args.js';

const bash = `# planwatch completion for bash. Load it: source <(planwatch completion bash)
_planwatch_complete() {
	local current=\${COMP_WORDS[COMP_CWORD]} output last directive line
	output=$("\${COMP_WORDS[0]}" __complete "\${COMP_WORDS[@]:1:COMP_CWORD-1}" "$current" 2>/dev/null) || return 0
	last=\${output##*$'\\n'}
	directive=\${last#:}
	[[ $directive =~ ^[0-9]+$ ]] || return 0
	if [[ $output == *$'\\n'* ]]; then output=\${output%$'\\n'*}; else output=; fi
	# --output=<TAB>: COMP_WORDS ends in the "=" (COMP_WORDBREAKS), but readline replaces only what follows it: bare
	# values (an "=" in front of them made --output==).
	COMPREPLY=()
	while IFS= read -r line; do
		# Cobra's "value<TAB>description": bash shows values only.
		[[ -n $line ]] && COMPREPLY+=("\${line%%$'\\t'*}")
	done <<<"$output"
	if (( \${#COMPREPLY[@]} == 0 && (directive & 4) == 0 )); then
		compopt -o default 2>/dev/null
	elif (( directive & 2 )); then
		compopt -o nospace 2>/dev/null
	fi
	return 0
}
complete -F _planwatch_complete planwatch kubectl-planwatch
`;

const zsh = `#compdef planwatch kubectl-planwatch
# planwatch completion for zsh. Load it: source <(planwatch completion zsh)  (after compinit)
_planwatch() {
	local output directive line prefix=
	local -a lines described
	output=$(\${words[1]} __complete "\${(@)words[2,CURRENT-1]}" "\${words[CURRENT]}" 2>/dev/null) || return 1
	lines=("\${(@f)output}")
	directive=\${lines[-1]#:}
	lines=("\${(@)lines[1,-2]}")
	# --output=<TAB>: the values come alone (Cobra's protocol); put the flag back in front of each.
	[[ \${words[CURRENT]} == -*=* ]] && prefix=\${words[CURRENT]%%=*}=
	# "value<TAB>description" becomes _describe's "value:description" (a colon in the value escaped).
	for line in "\${lines[@]}"; do
		[[ -z $line ]] && continue
		if [[ $line == *$'\\t'* ]]; then
			described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
		else
			described+=("\${line//:/\\\\:}")
		fi
	done
	if (( \${#described} == 0 && (directive & 4) == 0 )); then
		_files
	elif (( directive & 2 )); then
		_describe -t planwatch planwatch described -Q -P "$prefix" -S ''
	else
		_describe -t planwatch planwatch described -Q -P "$prefix"
	fi
}
compdef _planwatch planwatch kubectl-planwatch
`;

const fish = `# planwatch completion for fish. Load it: planwatch completion fish | source
function __planwatch_complete
	set -l tokens (commandline -opc)
	set -l current (commandline -ct)
	set -l output ($tokens[1] __complete $tokens[2..-1] "$current" 2>/dev/null)
	or return
	set -l directive (string replace -- ':' '' $output[-1])
	set -e output[-1]
	if test (count $output) -eq 0; and test (math "bitand($directive, 4)") -eq 0
		__fish_complete_path "$current"
		return
	end
	# --output=<TAB>: the values come alone (Cobra's protocol); fish wants the whole token. "value<TAB>description"
	# is fish's own format.
	set -l prefix (string match -r -- '^-[^=]*=' "$current")
	if set -q prefix[1]
		printf '%s\\n' $prefix$output
	else
		printf '%s\\n' $output
	end
end
complete -c planwatch -f -a '(__planwatch_complete)'
complete -c kubectl-planwatch -f -a '(__planwatch_complete)'
`;

export const completionScripts: Readonly<Record<CompletionShell, string>> = {bash, zsh, fish};
