"""Move adjudication service: board games refereed over HTTP, a kind a module of app/kinds/."""
