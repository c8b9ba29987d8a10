"""statewire-nodes: write Statewire node services in Python (see python/README.md)."""

from .codec import CodecError
from .containers import ServiceContainer, SlotError, State
from .context import Context, NotGrantedError, RemoteContainer
from .execution import PerExecution, current_execution, executing
from .executor import ExecutorError, StaleExecutionError
from .firelist import FireList, FireSpec, fire, firelist
from .reducers import ReducerError
from .service import Function, NodeService, Port

__version__ = "0.1.0"
__all__ = [
    "CodecError",
    "Context",
    "ExecutorError",
    "FireList",
    "FireSpec",
    "Function",
    "NodeService",
    "NotGrantedError",
    "PerExecution",
    "Port",
    "ReducerError",
    "RemoteContainer",
    "ServiceContainer",
    "SlotError",
    "StaleExecutionError",
    "State",
    "current_execution",
    "executing",
    "fire",
    "firelist",
]
