/**
 * Whether this instance wants new traffic. It does from the start until a graceful stop begins;
 * then `/readyz` answers 503 for a while before the listener closes, so the load balancer stops
 * sending requests before they would be refused.
 */
export class Readiness {
  #draining = false;

  get ready(): boolean {
    return !this.#draining;
  }

  drain(): void {
    this.#draining = true;
  }
}
