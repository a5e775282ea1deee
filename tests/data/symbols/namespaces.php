<?php
namespace A;
class X {}
namespace B;
class Y {}
