"""The HTTP face of a ``NodeService``: exactly the endpoints of docs/node-services-protocol.md.

Bodies are read raw and decoded by Content-Type (msgpack or JSON); the answer uses the request's
encoding. Errors are FastAPI's ``{"detail": "…"}`` JSON bodies whatever the request's encoding, as the
reference's servers answer them.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, Response

from . import codec
from .containers import SlotError
from .execution import executing
from .reducers import ReducerError
from .service import CallError, NodeService


async def _body(request: Request) -> tuple[Any, bool]:
    """(decoded body, is_msgpack); an empty body is ``{}``."""
    use_msgpack = codec.wants_msgpack(request.headers.get("content-type"))
    raw = await request.body()
    if not raw:
        return {}, use_msgpack
    try:
        return (codec.unpack(raw) if use_msgpack else codec.loads_json(raw)), use_msgpack
    except codec.CodecError as e:
        raise HTTPException(400, str(e)) from None


def _respond(obj: Any, use_msgpack: bool) -> Response:
    try:
        if use_msgpack:
            return Response(content=codec.pack(obj), media_type=codec.MSGPACK)
        return Response(content=codec.dumps_json(codec.to_json_value(obj)), media_type=codec.JSON)
    except codec.CodecError as e:
        raise HTTPException(500, str(e)) from None


def _execution_id(body: Any, what: str) -> str | None:
    """The body's optional ``execution_id`` (whose run's state the request is about)."""
    eid = body.get("execution_id") if isinstance(body, dict) else None
    if eid is not None and not isinstance(eid, str):
        raise HTTPException(400, f"{what}: 'execution_id' must be a string, got {type(eid).__name__}")
    return eid


def build_app(svc: NodeService) -> FastAPI:
    app = FastAPI(title=f"{svc.name} (statewire-nodes)", version=svc.version)

    @app.exception_handler(CallError)
    async def _call_error(_request: Request, exc: CallError) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, status_code=exc.status)

    @app.get("/health")
    async def health() -> dict:
        return svc.health()

    @app.get("/manifest")
    async def manifest() -> dict:
        return svc.manifest()

    @app.post("/call/{function}")
    async def call(function: str, request: Request) -> Response:
        body, use_msgpack = await _body(request)
        answer = await svc.call(function, body, json_mode=not use_msgpack)
        if use_msgpack:
            return _respond(answer, True)
        return Response(content=codec.dumps_json(answer), media_type=codec.JSON)  # already JSON-safe

    @app.post("/containers/evict")
    async def evict_all(request: Request) -> Response:
        body, use_msgpack = await _body(request)
        key = body.get("key") if isinstance(body, dict) else None
        if key is None:
            raise HTTPException(400, "evict requires 'key'")
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            raise HTTPException(400, f"evict: 'key' must be a string, got {type(key).__name__}")
        try:
            evicted = svc.evict(str(key), _execution_id(body, "evict"))
        except HTTPException:
            raise
        except Exception as e:  # an on_evict hook of the service failed
            raise HTTPException(500, f"evict '{key}': {e}") from None
        return _respond({"evicted": evicted, "key": key}, use_msgpack)

    # Snapshots are binary whatever the request's encoding: always answered in msgpack.
    @app.post("/snapshot")
    async def snapshot(request: Request) -> Response:
        body, _ = await _body(request)
        eid = _execution_id(body, "snapshot")
        try:
            blob = svc.take_snapshot(eid)
        except CallError:
            raise
        except Exception as e:  # the service's snapshot hook failed
            raise HTTPException(500, f"snapshot of execution {eid!r}: {type(e).__name__}: {e}") from None
        return Response(content=codec.pack({"snapshot": blob}), media_type=codec.MSGPACK)

    @app.post("/restore")
    async def restore(request: Request) -> Response:
        body, use_msgpack = await _body(request)
        eid = _execution_id(body, "restore")
        blob = body.get("snapshot")
        if blob is not None and not isinstance(blob, (bytes, bytearray, memoryview)):
            raise HTTPException(
                400, f"restore: 'snapshot' must be the bytes /snapshot answered (or null), got {type(blob).__name__}"
            )
        try:
            svc.put_back(eid, blob)
        except CallError:
            raise
        except Exception as e:  # the service's restore hook failed
            raise HTTPException(500, f"restore of execution {eid!r}: {type(e).__name__}: {e}") from None
        return _respond({"ok": True, "execution_id": eid}, use_msgpack)

    async def _slot_body(cid: str, request: Request) -> tuple[Any, dict, bool]:
        body, use_msgpack = await _body(request)
        if not isinstance(body, dict):
            raise HTTPException(400, f"container '{cid}': the body must be a map")
        if not use_msgpack:
            try:
                body = codec.from_json_value(body, None, "body")
            except codec.CodecError as e:
                raise HTTPException(400, str(e)) from None
        c = svc.container_or_404(cid)
        _execution_id(body, f"container '{cid}'")
        if request.url.path.endswith(("/read", "/write")) and not isinstance(body.get("name"), str):
            raise HTTPException(400, f"container '{cid}': the body needs a slot 'name' (a string)")
        return c, body, use_msgpack

    @app.post("/containers/{cid}/read")
    async def read(cid: str, request: Request) -> Response:
        c, body, use_msgpack = await _slot_body(cid, request)
        try:
            with executing(body.get("execution_id")):
                value = c.read(body.get("name"), key=body.get("key"))
        except SlotError as e:
            raise HTTPException(404, str(e)) from None
        except TypeError as e:
            raise HTTPException(400, str(e)) from None
        return _respond({"value": value}, use_msgpack)

    @app.post("/containers/{cid}/write")
    async def write(cid: str, request: Request) -> Response:
        c, body, use_msgpack = await _slot_body(cid, request)
        try:
            with executing(body.get("execution_id")):
                c.write(body.get("name"), body.get("data"), key=body.get("key"))
        except SlotError as e:
            raise HTTPException(404, str(e)) from None
        except (ReducerError, TypeError) as e:
            raise HTTPException(400, str(e)) from None
        return _respond({"ok": True}, use_msgpack)

    @app.post("/containers/{cid}/evict")
    async def evict_one(cid: str, request: Request) -> Response:
        c, body, use_msgpack = await _slot_body(cid, request)
        if body.get("key") is None:
            raise HTTPException(400, f"container '{cid}': evict requires 'key'")
        try:
            with executing(body.get("execution_id")):
                c.evict(body["key"])
        except TypeError as e:
            raise HTTPException(400, str(e)) from None
        return _respond({"ok": True}, use_msgpack)

    return app
