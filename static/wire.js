// The canvas's Socket.IO client: protocol v5 over Engine.IO v4's WebSocket transport, the part of the
// official client that the canvas uses (auth on connect, events, acknowledgements with a timeout,
// reconnection with backoff). Written here because the canvas has no build step, and the official client
// would otherwise be copied into the repository. The framing is in docs/protocol.md ("Transport").

const ENGINE = { open: "0", close: "1", ping: "2", pong: "3", message: "4" };
const PACKET = { connect: "0", disconnect: "1", event: "2", ack: "3", connectError: "4" };

export class WireSocket {
  constructor({ path = "/socket.io/", auth = (cb) => cb({}), reconnectionDelay = 500, reconnectionDelayMax = 4000 } = {}) {
    this.path = path;
    this.auth = auth;
    this.reconnectionDelay = reconnectionDelay;
    this.reconnectionDelayMax = reconnectionDelayMax;
    this.connected = false;
    this.id = null;
    this.transport = null;  // the WebSocket of the current attempt (closing it is a dropped network)
    this.handlers = new Map();
    this.anyHandlers = [];
    this.acks = new Map();  // ack id -> {resolve, reject, timer}
    this.nextAckId = 0;
    this.nextTimeout = undefined;
    this.wanted = false;  // connect() asked and no disconnect() since: a lost transport is opened again
    this.attempts = 0;
    this.retryTimer = null;
    this.heartbeat = null;
  }

  on(name, handler) {
    if (!this.handlers.has(name)) this.handlers.set(name, []);
    this.handlers.get(name).push(handler);
    return this;
  }

  onAny(handler) {
    this.anyHandlers.push(handler);
    return this;
  }

  connect() {
    this.wanted = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (!this.transport) this.openTransport();
    return this;
  }

  disconnect() {
    this.wanted = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const ws = this.transport;
    if (!ws) return this;
    if (this.connected && ws.readyState === WebSocket.OPEN) ws.send(ENGINE.message + PACKET.disconnect);
    this.dropTransport(ws, "io client disconnect");
    return this;
  }

  /** The next emitWithAck rejects if no acknowledgement comes within `ms`. */
  timeout(ms) {
    this.nextTimeout = ms;
    return this;
  }

  emit(event, ...args) {
    this.send(null, event, args);
    return this;
  }

  emitWithAck(event, ...args) {
    const ms = this.nextTimeout;
    this.nextTimeout = undefined;
    return new Promise((resolve, reject) => {
      if (!this.connected) {
        reject(new Error("disconnected"));
        return;
      }
      const id = this.nextAckId++;
      const timer = ms === undefined ? null : setTimeout(() => {
        this.acks.delete(id);
        reject(new Error("operation has timed out"));
      }, ms);
      this.acks.set(id, { resolve, reject, timer });
      this.send(id, event, args);
    });
  }

  // -------------------------------------------------------------- the transport

  send(ackId, event, args) {
    if (!this.connected || this.transport?.readyState !== WebSocket.OPEN) return;
    this.transport.send(ENGINE.message + PACKET.event + (ackId ?? "") + JSON.stringify([event, ...args]));
  }

  openTransport() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}${this.path}?EIO=4&transport=websocket`);
    this.transport = ws;
    ws.onmessage = (message) => {
      if (this.transport === ws && typeof message.data === "string") this.receiveEngine(ws, message.data);
    };
    ws.onclose = () => {
      if (this.transport === ws) this.dropTransport(ws, "transport close");
    };
    // An error is followed by a close, which is where the attempt ends.
    ws.onerror = () => {};
  }

  /** Ends the current transport: says so (disconnect, or connect_error for an attempt that never got in)
   *  and, unless the page or the server ended it, tries again after a growing pause. */
  dropTransport(ws, reason) {
    this.transport = null;
    clearTimeout(this.heartbeat);
    ws.onmessage = ws.onclose = null;
    if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.close();
    const wasConnected = this.connected;
    this.connected = false;
    for (const [id, pending] of this.acks) {
      clearTimeout(pending.timer);
      pending.reject(new Error("disconnected"));
      this.acks.delete(id);
    }
    if (wasConnected) this.fire("disconnect", [reason]);
    else if (reason === "transport close") this.fire("connect_error", [new Error("websocket error")]);
    if (this.wanted) this.retryLater();
  }

  retryLater() {
    const base = Math.min(this.reconnectionDelay * 2 ** this.attempts, this.reconnectionDelayMax);
    this.attempts += 1;
    const delay = Math.min(base * (0.5 + Math.random()), this.reconnectionDelayMax);  // spread, as the official client does
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.wanted && !this.transport) this.openTransport();
    }, delay);
  }

  receiveEngine(ws, data) {
    const type = data[0];
    if (type === ENGINE.open) {
      const handshake = parseJson(data.slice(1)) || {};
      this.heartbeatWithin = (handshake.pingInterval || 25000) + (handshake.pingTimeout || 20000);
      this.expectPing(ws);
      this.auth((payload) => {
        if (this.transport === ws && ws.readyState === WebSocket.OPEN) {
          ws.send(ENGINE.message + PACKET.connect + JSON.stringify(payload || {}));
        }
      });
    } else if (type === ENGINE.ping) {
      ws.send(ENGINE.pong);
      this.expectPing(ws);
    } else if (type === ENGINE.close) {
      this.dropTransport(ws, "transport close");
    } else if (type === ENGINE.message) {
      this.receivePacket(ws, data.slice(1));
    }
  }

  /** A server that stops pinging is gone even if the socket never said so (a laptop's sleep, a dead route). */
  expectPing(ws) {
    clearTimeout(this.heartbeat);
    this.heartbeat = setTimeout(() => this.transport === ws && this.dropTransport(ws, "ping timeout"), this.heartbeatWithin);
  }

  receivePacket(ws, data) {
    const type = data[0];
    let rest = data.slice(1);
    if (rest.startsWith("/")) rest = rest.slice(rest.indexOf(",") + 1);  // a namespace: the canvas uses "/" only
    const digits = /^\d*/.exec(rest)[0];
    const body = rest.slice(digits.length);
    if (type === PACKET.connect) {
      this.connected = true;
      this.attempts = 0;
      this.id = (parseJson(body) || {}).sid || null;
      this.fire("connect", []);
    } else if (type === PACKET.connectError) {
      const detail = parseJson(body) || {};
      const error = new Error(detail.message || "connection refused");
      error.data = detail.data;
      this.wanted = false;  // the server said no: asking again would get the same answer
      this.dropTransport(ws, "connect error");
      this.fire("connect_error", [error]);
    } else if (type === PACKET.disconnect) {
      this.wanted = false;
      this.dropTransport(ws, "io server disconnect");
    } else if (type === PACKET.event) {
      const [name, ...args] = parseJson(body) || [];
      if (typeof name !== "string") return;
      this.fire(name, args);
      for (const handler of this.anyHandlers) call(handler, name, [name, ...args]);
    } else if (type === PACKET.ack) {
      const pending = this.acks.get(Number(digits));
      if (!pending) return;  // timed out already
      this.acks.delete(Number(digits));
      clearTimeout(pending.timer);
      pending.resolve((parseJson(body) || [])[0]);
    }
  }

  fire(name, args) {
    for (const handler of this.handlers.get(name) || []) call(handler, name, args);
  }
}

// One handler's failure is logged and does not keep the others (or the socket) from going on.
function call(handler, name, args) {
  try {
    handler(...args);
  } catch (err) {
    console.error(`socket handler for ${name} failed`, err);
  }
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
