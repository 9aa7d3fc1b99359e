"""Frozen value classes with ``__slots__``, made without importing :mod:`dataclasses`.

:func:`frozen_value` is a class decorator that does what
``@dataclass(frozen=True, slots=True)`` (and ``order=True``) does for the
package's value types (:class:`~bakersdozen.cards.Card`,
:class:`~bakersdozen.model.Move`, :class:`~bakersdozen.model.Deal`,
:class:`~bakersdozen.rules.Rules`, ...), for a cheaper start: importing
:mod:`dataclasses` imports :mod:`inspect` (and with it :mod:`ast`,
:mod:`dis`, :mod:`tokenize`), about a quarter of what ``bakersdozen
solve --deal 1`` spent starting up, and every ``@dataclass`` compiles its
methods at import time.

The classes it makes behave as the dataclasses did:

- ``__init__(self, field, ..., field=default)`` in annotation order, then
  ``__post_init__()`` if the class has one;
- ``__repr__`` (``Name(field=value, ...)``), ``__eq__`` and ``__hash__``
  over the fields' tuple, unless the class defines its own; with
  ``order=True`` ``<``, ``<=``, ``>``, ``>=`` over that tuple;
- frozen: assigning or deleting a field raises
  :class:`dataclasses.FrozenInstanceError` (imported then, on that error
  path only); ``__post_init__`` may still use ``object.__setattr__``;
- ``__slots__`` (no instance ``__dict__``), ``__match_args__``, and the
  pickle state of a frozen slots dataclass (the list of field values);
- :func:`dataclasses.fields`, :func:`~dataclasses.replace`,
  :func:`~dataclasses.asdict` and :func:`~dataclasses.is_dataclass` work on
  them: ``__dataclass_fields__`` is built, importing :mod:`dataclasses`, the
  first time something asks for it (its ``Field`` objects are marked as
  plain fields with the module's private ``_FIELD``, as ``@dataclass``
  marks them; ``tests/test_values.py`` checks these functions).

Only plain fields with immutable defaults are supported, no
``dataclasses.field(...)``; a ``ClassVar`` or ``InitVar`` annotation, a
list, dict or set default, or a field without a default after one with a
default raises :class:`TypeError` at class creation.
"""

from __future__ import annotations

import operator
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar, dataclass_transform, overload

    _T = TypeVar("_T", bound=type)
    _V = TypeVar("_V")

__all__ = ["frozen_value", "replace"]

class _LazyFields:
    """``__dataclass_fields__`` of a frozen value class, made on first access."""

    def __init__(self, names: tuple[str, ...], defaults: dict[str, object],
                 annotations: dict[str, object]) -> None:
        self._names = names
        self._defaults = defaults
        self._annotations = annotations
        self._fields: dict[str, Any] | None = None

    def __get__(self, instance: object, owner: type | None = None) -> dict[str, Any]:
        if self._fields is None:
            import dataclasses

            fields = {}
            for name in self._names:
                default = self._defaults.get(name, dataclasses.MISSING)
                field: Any = dataclasses.field(default=default)
                field.name = name
                field.type = self._annotations.get(name)
                field._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
                fields[name] = field
            self._fields = fields
        return self._fields


def _make(name: str, source: str, module_globals: dict[str, Any],
          local: dict[str, object]) -> Callable[..., Any]:
    """Compile the function *name* from *source*, with *local* names bound (as dataclasses does)."""
    args = ", ".join(local)
    text = f"def __create__({args}):\n" + "".join(
        "    " + line + "\n" for line in source.splitlines()
    ) + f"    return {name}\n"
    namespace: dict[str, Any] = {}
    exec(text, module_globals, namespace)  # noqa: S102 - our own fixed text
    function: Callable[..., Any] = namespace["__create__"](**local)
    return function


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[object, ...]]:
    """The fields' tuple of a value (as the dataclass methods compare and hash it)."""
    if len(names) == 1:
        getter = operator.attrgetter(names[0])
        return lambda self: (getter(self),)
    if not names:
        return lambda self: ()
    return operator.attrgetter(*names)


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"
    return __repr__


def _compare(key: Callable[[Any], tuple[object, ...]],
             op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def compare(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return op(key(self), key(other))
        return NotImplemented
    return compare


def _frozen(cls: type, names: tuple[str, ...]) -> dict[str, Callable[..., Any]]:
    """``__setattr__``, ``__delattr__`` and the pickle state of a frozen slots class."""
    set_field = object.__setattr__

    def __setattr__(self: Any, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            import dataclasses

            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            import dataclasses

            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)  # type: ignore[arg-type]

    def __getstate__(self: Any) -> list[object]:
        return [getattr(self, name) for name in names]

    def __setstate__(self: Any, state: list[object]) -> None:
        for name, value in zip(names, state):
            set_field(self, name, value)

    return {"__setattr__": __setattr__, "__delattr__": __delattr__,
            "__getstate__": __getstate__, "__setstate__": __setstate__}


if TYPE_CHECKING:  # the type checker reads the classes as frozen dataclasses (PEP 681)
    @overload
    @dataclass_transform(frozen_default=True)
    def frozen_value(cls: _T, /) -> _T: ...

    @overload
    def frozen_value(*, order: bool = False) -> Callable[[_T], _T]: ...


def frozen_value(cls: _T | None = None, /, *, order: bool = False) -> Any:
    """Make *cls* a frozen value class with ``__slots__`` (see the module docstring).

    Parameters
    ----------
    cls : type
        A class whose annotations (in order) are its fields; a class
        attribute of the same name is the field's default.
    order : bool, default False
        Also define ``<``, ``<=``, ``>``, ``>=`` over the fields' tuple.

    Returns
    -------
    type
        A new class (as ``slots=True`` makes), or the decorator when
        called with *order* only.

    Raises
    ------
    TypeError
        A field without a default after one with a default, a mutable
        default (list, dict, set), a ``ClassVar`` or ``InitVar`` field, or
        with *order* an ordering method the class already defines.
    """
    if cls is None:
        return lambda c: _frozen_value(c, order)
    return _frozen_value(cls, order)


def _frozen_value(cls: type, order: bool) -> type:
    body = dict(cls.__dict__)
    annotations: dict[str, object] = dict(body.get("__annotations__", {}))
    names = tuple(annotations)
    defaults: dict[str, object] = {}
    for name in names:
        kind = str(annotations[name])
        if kind.startswith(("ClassVar", "typing.ClassVar", "InitVar", "dataclasses.InitVar")):
            raise TypeError(f"{cls.__name__}.{name}: ClassVar and InitVar fields are not supported")
        if name in body:
            default = body.pop(name)
            if isinstance(default, (list, dict, set)):
                raise TypeError(f"{cls.__name__}.{name}: mutable default {type(default).__name__}")
            defaults[name] = default
        elif defaults:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
    for own in ("__dict__", "__weakref__"):
        body.pop(own, None)
    body["__slots__"] = names
    body["__match_args__"] = names
    body["__dataclass_fields__"] = _LazyFields(names, defaults, annotations)
    qualname = cls.__qualname__
    new = type(cls)(cls.__name__, cls.__bases__, body)
    new.__qualname__ = qualname
    module_globals = sys.modules[cls.__module__].__dict__ if cls.__module__ in sys.modules else {}
    # Only __init__ is compiled, for its signature (help(), inspect.signature);
    # the other methods are closures, compiled once for all the classes.
    params = ", ".join(f"{n}=__default_{n}" if n in defaults else n for n in names)
    sets = "".join(f"    __set(self, {n!r}, {n})\n" for n in names) or "    pass\n"
    post = "    self.__post_init__()\n" if hasattr(new, "__post_init__") else ""
    init = _make("__init__", f"def __init__(self, {params}):\n{sets}{post}",
                 module_globals, {"__set": object.__setattr__,
                                  **{f"__default_{n}": v for n, v in defaults.items()}})
    init.__annotations__ = {**annotations, "return": None}
    methods: dict[str, Callable[..., Any]] = {"__init__": init}
    key = _key(names)
    if "__repr__" not in body:
        methods["__repr__"] = _repr(names)
    if "__eq__" not in body:
        methods["__eq__"] = _compare(key, operator.eq)
    explicit_hash = "__hash__" in body and not (body["__hash__"] is None and "__eq__" in body)
    if not explicit_hash:
        methods["__hash__"] = lambda self: hash(key(self))
    if order:
        for method, op in (("__lt__", operator.lt), ("__le__", operator.le),
                           ("__gt__", operator.gt), ("__ge__", operator.ge)):
            if method in body:
                raise TypeError(f"{cls.__name__} defines {method}; order=True would replace it")
            methods[method] = _compare(key, op)
    methods.update(_frozen(new, names))
    for name, function in methods.items():
        function.__name__ = name
        function.__qualname__ = f"{qualname}.{name}"
        setattr(new, name, function)
    return new


def replace(value: _V, /, **changes: object) -> _V:
    """A copy of the frozen value *value* with some fields changed (:func:`dataclasses.replace`).

    Raises
    ------
    TypeError
        If a name in *changes* is not a field (from the class's ``__init__``).
    """
    fields = {name: getattr(value, name) for name in value.__match_args__}  # type: ignore[attr-defined]
    fields.update(changes)
    return value.__class__(**fields)
