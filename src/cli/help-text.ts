/** The `--help` text. */
export const HELP_TEXT = `Usage: gemini-agent [options] [prompt]
       gemini-agent login [--no-browser]    Sign in with Google (see gemini-agent login --help)
       gemini-agent logout                  Delete the cached Google credentials

Run one prompt through a Gemini agent and print the answer (gemini -p compatible).
Piped stdin is prepended to the prompt: \`cat notes.md | gemini-agent -p "summarize"\`.

Prompt and model:
  -p, --prompt <text>              The prompt. A positional prompt works too.
  -m, --model <id>                 Model id or alias (auto, pro, flash, flash-lite as in gemini-cli; default
                                   gemini-2.5-pro). openai:<model> and ollama:<model> use other providers.
      --base-url <url>             An OpenAI-compatible server (vLLM, LM Studio, llama.cpp, Ollama…) serving
                                   -m's model, e.g. --base-url http://localhost:8000/v1 -m Qwen/Qwen3-8B.
      --api-key-env <NAME>         The environment variable holding that server's API key (default: no key).
  -i, --prompt-interactive [text]  Run the prompt, then read more prompts line by line (/help lists commands).
  -o, --output-format <format>     text (default), json or stream-json.
      --max-turns <n>              Model calls allowed for this prompt (default: the SDK default).
      --max-cost <usd>             The session's budget in US dollars (shipped list prices), over its whole
                                   life; the run pauses (exit 56) before a model call that would cross it.
      --max-tokens <n>             The session's budget of input and output tokens together, likewise.
                                   Continue a paused run with -r <id> and a higher limit, without a prompt.

Tools and permissions:
  -y, --yolo                       Run every tool call without asking (same as --approval-mode yolo).
      --approval-mode <mode>       default, auto_edit, yolo or plan. Nobody can approve in headless mode,
                                   so tools that would ask are not offered (as gemini -p does).
      --policy <file|dir>          Policy files or folders, replacing ~/.gemini/policies (repeatable).
      --admin-policy <file|dir>    More admin-tier policy files or folders (repeatable).
      --allowed-tools <tool>       Tools allowed without asking, e.g. "run_shell_command(git status)".
      --allowed-mcp-server-names <name>  MCP servers whose tools are allowed without asking.
      --skip-trust                 Trust the working folder for this run (its settings, skills, GEMINI.md).
      --include-directories <dir>  Extra workspace directories (repeatable, or comma-separated).
      --skills <dir>               A skill directory (with SKILL.md) or a folder of skills (repeatable).
  -e, --extensions <name>          Only these installed extensions run (repeatable, or comma-separated);
                                   -e none runs none. Default: all that are enabled here.
  -l, --list-extensions            List the installed extensions and exit.

Sessions (stored as gemini-cli sessions under $GEMINI_CLI_HOME or ~/.gemini):
  -r, --resume [latest|N|id]       Continue a session of this project (no value: the latest).
      --session-id <id>            Start a new session with this id (letters, digits, - and _).
      --list-sessions              List this project's sessions and exit.
      --delete-session <N|id>      Delete a session and exit.
      --show-config                Print the effective configuration (model, trust, settings, context
                                   files, policies, tools, generationConfig) as JSON and exit.

Editors (Agent Client Protocol):
      --acp                        Serve ACP on stdin/stdout for an editor (Zed, JetBrains, Neovim clients).
                                   The editor sends prompts, answers permission requests and picks sessions.
      --experimental-acp           Deprecated alias of --acp.
      --acp-terminal               With --acp: run shell commands in the editor's terminal when it has one.

Testing:
      --fake-responses <file>      Replay recorded model responses (gemini-cli JSONL) instead of calling Gemini.
      --record-responses <file>    Append every model response to this file (replayable with --fake-responses).

MCP servers (mcpServers in settings.json, as gemini mcp):
  gemini-agent mcp list | add <name> <commandOrUrl> [args...] | remove <name>   (see gemini-agent mcp --help)

Extensions (~/.gemini/extensions, as gemini extensions):
  gemini-agent extensions list | install <path|git-url> | link <path> | uninstall <name> | enable | disable
                          | new <path> [template] | validate <path>   (see gemini-agent extensions --help)

Hooks (the settings files' command hooks run on every prompt, as in gemini):
  gemini-agent hooks list [-o json] | hooks enable|disable <name> | hooks migrate --from-claude
                                          (see gemini-agent hooks --help)

Skills (~/.gemini/skills and a trusted project's .gemini/skills; skills.disabled in settings.json, as gemini skills):
  gemini-agent skills list [--all] | skills enable <name> | skills disable <name> [--scope user|workspace]
                                          (see gemini-agent skills --help)

Subagents (.gemini/agents/*.md, ~/.gemini/agents/*.md and extensions' agents, as gemini's /agents):
  gemini-agent agents list [-o json] | agents enable|disable <name>   (see gemini-agent agents --help)

Session viewer (a read-only web page on 127.0.0.1: timelines of this project's sessions, live):
  gemini-agent view [session] [--no-open] [--port <n>]   (see gemini-agent view --help)

Telemetry: OpenTelemetry spans as gemini-cli's telemetry.* settings say (enabled, target, otlpEndpoint,
otlpProtocol, outfile, logPrompts; GEMINI_TELEMETRY_* override them). Needs the optional @opentelemetry/*
packages; see docs/observability.md.

PostgreSQL session store:
  gemini-agent postgres migrate|status [--url <url>] [--schema <name>]   (see gemini-agent postgres --help)

Output safety:
      --raw-output                 Print model text as sent (escape sequences are stripped by default).
      --accept-raw-output-risk     --raw-output without its warning.

Other:
  -d, --debug                      Print SDK log lines on stderr.
  -v, --version                    Print the version.
  -h, --help                       Print this help.

Credentials, chosen as gemini-cli does: security.auth.selectedType in ~/.gemini/settings.json, else
GOOGLE_GENAI_USE_GCA=true (Login with Google: run gemini-agent login), GOOGLE_GENAI_USE_VERTEXAI=true (with
GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION, or GOOGLE_API_KEY), GOOGLE_GEMINI_BASE_URL (a gateway),
GEMINI_API_KEY; else Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, Cloud Shell, GCE).
Other models: -m openai:gpt-4.1 (OPENAI_API_KEY, OPENAI_BASE_URL), -m ollama:llama3.2 (OLLAMA_HOST) or
--base-url. See docs/auth.md and docs/providers.md.

Exit codes: 0 ok, 1 error or bad flag, 41 no credentials, 42 bad input, 44 sandbox, 52 configuration,
53 turn limit, 56 paused on the budget, 130 interrupted.
`;
