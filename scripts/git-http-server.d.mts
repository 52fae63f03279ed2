/** A running loopback git server (see git-http-server.mjs). */
export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`: a repository `<root>/x.git` is `<url>/x.git`. */
  url: string;
  close(): Promise<void>;
}

/** Serves the git repositories under `root` over smart HTTP on a free loopback port (read-only). */
export function startGitHttpServer(root: string): Promise<GitHttpServer>;
