"""Move adjudication service: board games refereed over HTTP, one kind a module of ``app/kinds/``."""
